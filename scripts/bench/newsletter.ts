/**
 * Newsletter budget, against the API in its own process with the embedded mailbox, on embedded
 * PGlite and on a real Postgres server:
 *  - an issue to 10,000 generated recipients (three cuts: premium, subscriber, list readers) is
 *    written to the outbox by `POST /api/admin/newsletter/issues/{id}/send` in under 10 s;
 *  - the outbox worker then delivers it into the mailbox at >= 100 mails/s (every copy, counted by
 *    the issue's own account, and the .eml files in the mailbox);
 *  - the server's peak RSS growth from before the send to the last copy delivered stays under 100 MB,
 *    with what is left after a collection split into the JavaScript heap and the rest (on PGlite, the
 *    database's own memory: it runs inside the server and its buffer pool fills with the new rows).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, startPostgres } from '../../tests/support/postgres.ts';

type StartChild = (
  script: string,
  env: Record<string, string>,
) => Promise<{ url: string; child: { kill(signal?: NodeJS.Signals): boolean } }>;

interface Report {
  rssPeakGrowth: number;
  rssGrowth: number;
  heapGrowth: number;
  gcExposed: boolean;
}
type Stats = { recipients: number; sent: number; failed: number; suppressed: number; pending: number };

const TOTAL = 10_000;
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
/** An issue of a realistic length: a public opening, then about 6 kB of Markdown for premium readers. */
const BODY = [
  '## This month: three tactics that moved the needle',
  'A public opening that every reader gets, with a [link to our tools](https://www.beacongrowth.co/tools).',
  '<!-- preview -->',
  ...Array.from(
    { length: 12 },
    (_, i) => `### Tactic ${i + 1}\n\n${'We tested this with clients and measured the results over a quarter. '.repeat(6)}`,
  ),
].join('\n\n');

/** One run: send the issue, then let the server's worker deliver it; prints the figures and the verdicts. */
async function run(label: string, tmp: string, startChild: StartChild, env: Record<string, string>) {
  const dataDir = path.join(tmp, 'newsletter-data');
  const tokensFile = path.join(tmp, 'newsletter-editor.json');
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startChild('scripts/bench/newsletter-server.ts', {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    EMAIL_WORKER: 'false',
    AUTH_SEED_DEMO: 'false',
    AUTH_BCRYPT_COST: '4',
    BENCH_TOKENS_FILE: tokensFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim(),
    ...env,
  });
  try {
    const { token, probe } = JSON.parse(readFileSync(tokensFile, 'utf8')) as { token: string; probe: string };
    const api = async <T>(p: string, method = 'GET', body?: unknown): Promise<T> => {
      const res = await fetch(`${server.url}/api/admin/newsletter${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (res.status >= 300) throw new Error(`${method} ${p} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    };
    const report = async () => (await (await fetch(`${probe}/report`)).json()) as Report;
    const { id } = await api<{ id: string }>('/issues', 'POST', {
      subject: 'Bench issue',
      previewText: 'Three tactics that moved the needle',
      body: BODY,
      accessLevel: 'premium',
      audience: ['newsletter', 'subscriber', 'premium'],
    });

    await fetch(`${probe}/reset`, { method: 'POST' });
    let started = performance.now();
    await api(`/issues/${id}/send`, 'POST');
    const enqueueSeconds = (performance.now() - started) / 1000;
    const afterEnqueue = await report();
    const stats = async () => (await api<{ issue: { stats: Stats } }>(`/issues/${id}`)).issue.stats;
    const written = await stats();

    started = performance.now();
    await fetch(`${probe}/deliver`, { method: 'POST' });
    let now = written;
    while (now.pending > 0) {
      await new Promise((r) => setTimeout(r, 250));
      now = await stats();
    }
    const deliverySeconds = (performance.now() - started) / 1000;
    const end = await report();
    const files = readdirSync(path.join(dataDir, 'mailbox')).filter((f) => f.endsWith('.eml')).length;
    const rate = now.sent / deliverySeconds;
    console.log(`\n### ${label}\n`);
    console.log(
      `Enqueue: ${written.recipients} copies written in ${enqueueSeconds.toFixed(2)} s (peak server RSS growth ${mb(afterEnqueue.rssPeakGrowth)})`,
    );
    console.log(
      `Delivery: ${now.sent} sent, ${now.failed} failed, ${files} .eml files in ${deliverySeconds.toFixed(1)} s: ${rate.toFixed(0)} mails/s`,
    );
    console.log(
      `Server peak RSS growth from before the send to the last copy: ${mb(end.rssPeakGrowth)} (gc before: ${end.gcExposed ? 'yes' : 'no'}; ` +
        `left after gc: ${mb(end.rssGrowth)}, of it the JavaScript heap ${mb(end.heapGrowth)})`,
    );
    console.log(`Enqueue of ${TOTAL} under 10 s: ${written.recipients === TOTAL && enqueueSeconds < 10 ? 'PASS' : 'FAIL'}`);
    console.log(`Delivery to the mailbox at >= 100 mails/s: ${now.sent === TOTAL && files >= TOTAL && rate >= 100 ? 'PASS' : 'FAIL'}`);
    console.log(`Server memory growth under 100 MB: ${end.rssPeakGrowth < 100 * MB ? 'PASS' : 'FAIL'}`);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function newsletterBench(tmp: string, startChild: StartChild) {
  console.log('\n## Newsletter: an issue to 10,000 recipients (enqueue time, delivery rate, server memory)');
  await run('Embedded PGlite (the database inside the server process)', tmp, startChild, {});
  const pg = await startPostgres();
  try {
    const url = await createTestDatabase(pg.adminUrl, 'bench_newsletter');
    await run('Postgres (a server of its own)', tmp, startChild, { DATABASE_URL: url });
  } finally {
    await pg.stop();
  }
}
