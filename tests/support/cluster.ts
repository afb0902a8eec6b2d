/**
 * The production shape on loopback, for the scale-out test and bench: several server processes,
 * each with its own working folder and DATA_DIR as separate machines would have, on one Postgres
 * database, one S3 server (s3rver) and one SMTP server, behind Debian's nginx as a round-robin
 * balancer. Every instance runs the mail worker and the embedded billing clock, as they do by
 * default. No test-runner helpers: `npm run bench -- --only=scale-out` uses it too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { startNginx, type RunningNginx } from './nginx.ts';
import { freePort } from './postgres.ts';
import { startTestSmtp, type TestSmtp } from './smtp.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLUSTER_SECRET = 'scale-out-test-secret-key-0123456789abcdef';

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  /** What it printed (its log at LOG_LEVEL=warn), for failure messages. */
  output: () => string;
}

export interface Cluster {
  /** The balancer: the site's public address (SITE_URL of every instance). */
  url: string;
  instances: Instance[];
  smtp: TestSmtp;
  nginx: RunningNginx;
  /** SIGKILLs instance `index` at once (a lost machine). */
  kill(index: number): void;
  /** Starts a replacement for instance `index` (a new process, folder and port) and puts it behind the balancer. */
  replace(index: number): Promise<Instance>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  size: number;
  databaseUrl: string;
  distDir: string;
  /** Extra environment for every instance. */
  env?: Record<string, string>;
}

export async function startCluster({ size, databaseUrl, distDir, env = {} }: ClusterOptions): Promise<Cluster> {
  const root = await mkdtemp(path.join(tmpdir(), 'beacon-cluster-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(root, 's3'),
    configureBuckets: [{ name: 'media', configs: [] }],
  });
  const { port: s3Port } = await s3.run();
  const smtp = await startTestSmtp();
  const lbPort = await freePort();
  const url = `http://127.0.0.1:${lbPort}`;
  const common: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    SITE_URL: url,
    // The client's own X-Forwarded-For entry, then the balancer's hop.
    TRUST_PROXY: '2',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '4',
    PAYMENTS: 'test',
    SECRET_KEY: CLUSTER_SECRET,
    DIST_DIR: distDir,
    CONTENT_DIR: path.join(ROOT, 'content'),
    S3_BUCKET: 'media',
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    SMTP_URL: smtp.url,
    EMAIL_LEASE_SECONDS: '4',
    BILLING_CLOCK_SECONDS: '1',
    AUTH_SEED_DEMO: 'true',
    AUTH_BCRYPT_COST: '4',
    LOG_LEVEL: 'warn',
    ...env,
  };
  let made = 0;

  async function launch(): Promise<Instance> {
    made += 1;
    const name = `instance-${made}`;
    const folder = path.join(root, name);
    await mkdir(folder, { recursive: true });
    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, [path.join(ROOT, 'functions/server.ts')], {
      cwd: folder,
      env: { ...common, PORT: String(port), DATA_DIR: path.join(folder, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const instanceUrl = `http://127.0.0.1:${port}`;
    for (let waited = 0; ; waited += 100) {
      const ready = await fetch(`${instanceUrl}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) break;
      if (child.exitCode !== null || waited > 60_000) throw new Error(`${name} did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { name, url: instanceUrl, child, output: () => output };
  }

  // The first alone (it applies the migrations and seeds the demo accounts), then the others together.
  const instances = [await launch()];
  instances.push(...(await Promise.all(Array.from({ length: size - 1 }, () => launch()))));
  const upstreams = () => instances.map((i) => new URL(i.url).host);
  const nginx = await startNginx({ upstreams: upstreams(), port: lbPort });

  return {
    url,
    instances,
    smtp,
    nginx,
    kill(index) {
      instances[index]!.child.kill('SIGKILL');
    },
    async replace(index) {
      const fresh = await launch();
      instances[index] = fresh;
      await nginx.setUpstreams(upstreams());
      return fresh;
    },
    async stop() {
      await nginx.stop();
      await Promise.all(
        instances.map(async (i) => {
          if (i.child.exitCode !== null || i.child.signalCode !== null) return;
          i.child.kill('SIGTERM');
          await new Promise((r) => i.child.once('exit', r));
        }),
      );
      await smtp.close();
      await s3.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
