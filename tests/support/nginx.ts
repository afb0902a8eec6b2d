/**
 * Debian's nginx on loopback for the scale-out tests: a round-robin load balancer in front of
 * several instances (retrying idempotent requests on a refused or reset connection, as a production
 * balancer does), optionally with a shared cache (`proxy_cache`) standing in for a CDN.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './postgres.ts';

export const NGINX = '/usr/sbin/nginx';

export interface NginxOptions {
  /** `host:port` of each instance behind the balancer. */
  upstreams: string[];
  /** Put a CDN-like shared cache in front (honours Cache-Control, answers X-Cache-Status). */
  cache?: boolean;
  /** The loopback port to listen on (a free one when absent). */
  port?: number;
}

export interface RunningNginx {
  url: string;
  /** Points the balancer at other instances (a replacement) and reloads it without dropping connections. */
  setUpstreams(upstreams: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** Installs Debian's nginx when missing and allowed (root), as `.ci/run` does. */
export function ensureNginx(): void {
  if (existsSync(NGINX)) return;
  if (process.getuid?.() !== 0) throw new Error('nginx is missing: install Debian\'s "nginx" package (apt-get install nginx).');
  const result = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx'],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('could not install nginx');
}

function config(dir: string, port: number, { upstreams, cache }: NginxOptions): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join('\n  ');
  return `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 2048; }
http {
  access_log off;
  ${temp}
  upstream app {
    ${upstreams.map((u) => `server ${u} max_fails=1 fail_timeout=2s;`).join('\n    ')}
    keepalive 32;
  }
  ${cache ? `proxy_cache_path ${dir}/cache levels=1:2 keys_zone=cdn:10m max_size=200m inactive=10m use_temp_path=off;` : ''}
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 64m;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_request_buffering off;
      # A refused or reset connection sends an idempotent request to the next instance (never a POST).
      proxy_next_upstream error timeout http_502 http_503 http_504;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
      ${
        cache
          ? `proxy_cache cdn;
      proxy_cache_lock on;
      # Stale copies only as the answer allows (its stale-while-revalidate), or while every origin
      # fails: a blanket "updating" would serve a copy of any age to whoever triggers its refresh.
      proxy_cache_use_stale error timeout http_502 http_503;
      proxy_cache_background_update on;
      add_header X-Cache-Status $upstream_cache_status always;`
          : ''
      }
    }
  }
}
`;
}

/** Starts nginx in the foreground on a free loopback port. */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  ensureNginx();
  // Its own folder (no test-runner helper: the scale-out bench uses this too), removed on stop.
  const dir = await mkdtemp(path.join(tmpdir(), 'beacon-nginx-'));
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  const port = options.port ?? (await freePort());
  const file = path.join(dir, 'nginx.conf');
  let current = options;
  await writeFile(file, config(dir, port, current));
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 50) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited: ${stderr}${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`);
    const up = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (waited > 10_000) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    async setUpstreams(upstreams) {
      current = { ...current, upstreams };
      await writeFile(file, config(dir, port, current));
      child.kill('SIGHUP');
      await new Promise((r) => setTimeout(r, 300));
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await new Promise((r) => child.once('exit', r));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
