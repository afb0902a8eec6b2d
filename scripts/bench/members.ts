/**
 * Members import budget (issue 35), against the API in its own process, on embedded PGlite and on a
 * real Postgres server: a generated 50,000-member file (deterministic, with the variety of a real
 * list: labels, comps, proven and unproven newsletter consent, bounces, sign-up sources, formula-like
 * names) goes through `POST /api/admin/members/import?dryRun=1`, then the import itself, which must
 * answer in under 60 s with the server's peak RSS growth under 150 MB; then `GET /api/admin/members/export.csv`
 * must give every member back (timed too). Mail stays in the outbox (the opt-in mails are only queued).
 */
import { request } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { CSV_COLUMNS, type CsvColumn } from '#shared/members.ts';
import { membersCsv } from '../../functions/members/csv/cells.ts';
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
  heapLimit: number;
}
/** What the export must give back of the file, counted while it is generated. */
type Counts = Record<'comps' | 'labelled' | 'confirmed' | 'pending' | 'suppressed' | 'utm' | 'formulas', number>;

/** `--heap=default` lets V8 size the server's heap from this machine instead of the product's. */
const HEAP_FLAG = process.argv.includes('--heap=default') ? '' : '--max-old-space-size=256';
const TOTAL = 50_000;
const MB = 1024 * 1024;
const DAY = 86_400_000;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const BUDGET = { seconds: 60, growth: 150 * MB };

const FIRST = ['Anna', 'Ben', 'Chloé', 'David', 'Emma', 'Farid', 'Grace', 'Hiro', 'Isabel', 'José', 'Kofi', 'Łukasz', 'Mia', 'Noah', 'Zoë'];
const LAST = ['Smith', "O'Brien", 'García', 'Müller', 'Nguyen', 'Kowalski', 'Smith, Jr.', 'Okafor', 'Tanaka', 'Rossi', 'Dubois'];
const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.co.uk', 'proton.me', 'example.org', 'agency.bench', 'shop.bench'];
const LABELS = ['VIP', 'Webinar 2025', 'Agency', 'Beta tester', 'Conference lead'];
const SOURCES = ['signup form', 'webinar registration', 'checkout', 'imported from Mailchimp'];
const UTM = {
  source: ['google', 'newsletter', 'twitter', 'linkedin', 'partner'],
  medium: ['cpc', 'email', 'social', 'referral'],
  campaign: ['spring-sale', 'launch-2025', 'webinar-seo', 'black-friday'],
  referrer: ['https://www.google.com/', 'https://t.co/abc', 'https://www.linkedin.com/', 'https://partner.example.org/blog/review'],
};

/** A small seeded generator (mulberry32), so every run imports the same file. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}

/** The members file, as the export writes one (cells defused), with the counts the export must give back. */
export function membersFile(now: Date): { csv: string; emails: Set<string>; counts: Counts } {
  const r = random(35);
  const start = Date.parse('2021-01-01T00:00:00.000Z');
  const until = new Date(Date.parse(now.toISOString().slice(0, 10)) + 90 * DAY).toISOString();
  const counts: Counts = { comps: 0, labelled: 0, confirmed: 0, pending: 0, suppressed: 0, utm: 0, formulas: 0 };
  const emails = new Set<string>();
  const rows = Array.from({ length: TOTAL }, (_, i): Record<CsvColumn, string> => {
    const row = Object.fromEntries(CSV_COLUMNS.map((c) => [c, ''])) as Record<CsvColumn, string>;
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    const local = [first, last].map((n) => n.normalize('NFD').replace(/[^A-Za-z]/g, '')).join('.');
    row.email = `${r.next() < 0.05 ? local : local.toLowerCase()}.${i}@${r.pick(DOMAINS)}`;
    emails.add(row.email.toLowerCase());
    // A few names a spreadsheet would run as formulas: the file carries them defused, as the export writes them.
    row.name = i % 5000 === 7 ? `=HYPERLINK("http://evil.example","${first}")` : `${first} ${last}`;
    if (row.name.startsWith('=')) counts.formulas++;
    const created = start + Math.floor(r.next() * (now.getTime() - start - 2 * DAY));
    row.created_at = new Date(created).toISOString();
    row.access_level = 'free';
    if (r.next() < 0.2) {
      const n = 1 + Math.floor(r.next() * 3);
      row.labels = [...new Set(Array.from({ length: n }, () => r.pick(LABELS)))].join(';');
      counts.labelled++;
    }
    if (r.next() < 0.1) {
      row.comp_level = row.access_level = r.next() < 0.5 ? 'subscriber' : 'premium';
      row.comp_until = until;
      counts.comps++;
    }
    const list = r.next();
    if (list < 0.3) {
      row.list_status = 'confirmed';
      row.consent_at = new Date(created + Math.floor(r.next() * (now.getTime() - created - DAY))).toISOString();
      row.consent_source = r.pick(SOURCES);
      row.newsletter = 'yes';
      counts.confirmed++;
    } else if (list < 0.35) row.list_status = 'pending';
    else row.newsletter = r.next() < 0.2 ? 'no' : '';
    if (r.next() < 0.02) {
      row.suppressed = 'bounce';
      counts.suppressed++;
    }
    // A suppressed address is asked nothing, so it stays off the list.
    if (row.list_status === 'pending' && !row.suppressed) counts.pending++;
    if (r.next() < 0.3) {
      row.signup_referrer = r.pick(UTM.referrer);
      row.signup_utm_source = r.pick(UTM.source);
      row.signup_utm_medium = r.pick(UTM.medium);
      row.signup_utm_campaign = r.pick(UTM.campaign);
      counts.utm++;
    }
    if (r.next() < 0.03) row.stripe_customer_id = `cus_Bench${i.toString(36).padStart(6, '0')}`;
    return row;
  });
  return { csv: membersCsv(rows), emails, counts };
}

/** One HTTP call over its own connection, without fetch's five-minute header timeout; answers status, body and milliseconds. */
function call(url: string, method: string, headers: Record<string, string>, body?: Buffer) {
  const started = performance.now();
  return new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
    const req = request(url, { method, headers: body ? { ...headers, 'content-length': String(body.length) } : headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8'), ms: performance.now() - started }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The export's members of the file, and its counts, for the comparison with the file's. */
function exported(text: string, emails: Set<string>) {
  const lines = parse(text, { columns: true, skip_empty_lines: true }) as Record<CsvColumn, string>[];
  const mine = lines.filter((l) => emails.has(l.email));
  const counts: Counts = {
    comps: mine.filter((l) => l.comp_level).length,
    labelled: mine.filter((l) => l.labels).length,
    confirmed: mine.filter((l) => l.list_status === 'confirmed').length,
    pending: mine.filter((l) => l.list_status === 'pending').length,
    suppressed: mine.filter((l) => l.suppressed === 'bounce').length,
    utm: mine.filter((l) => l.signup_utm_source).length,
    // Exported defused again, as the file had them.
    formulas: mine.filter((l) => l.name.startsWith("'=")).length,
  };
  return { lines: lines.length, mine: mine.length, counts };
}

const row = (step: string, ms: number, rows: number, memory: Report | undefined) =>
  `| ${step} | ${(ms / 1000).toFixed(2)} s | ${Math.round(rows / (ms / 1000))} | ${memory ? mb(memory.rssPeakGrowth) : '-'} | ${
    memory ? `${mb(memory.rssGrowth)} (heap ${mb(memory.heapGrowth)})` : '-'
  } |`;

type Call = Awaited<ReturnType<typeof call>>;
interface RunResult {
  dry: { res: Call; memory: Report };
  dryAnswer: { rows: number; errors: unknown[] };
  imp: { res: Call; memory: Report };
  answer: { created: number; updated: number; errors: { row: number; message: string }[] };
  out: Call;
  back: ReturnType<typeof exported>;
}

/** One run's table, what came back, and the verdicts. */
function printRun(label: string, file: ReturnType<typeof membersFile>, { dry, dryAnswer, imp, answer, out, back }: RunResult) {
  console.log(`\n### ${label}\n`);
  console.log('| step | wall time (client) | rows/s | server peak RSS growth | left after gc |\n|---|---|---|---|---|');
  console.log(row('dry run (`?dryRun=1`)', dry.res.ms, dryAnswer.rows, dry.memory));
  console.log(row('import', imp.res.ms, TOTAL, imp.memory));
  console.log(row('export (`GET /api/admin/members/export.csv`)', out.ms, back.lines, undefined));
  console.log(
    `\nDry run: ${dryAnswer.rows} rows, ${dryAnswer.errors.length} errors. Import: created ${answer.created}, updated ${answer.updated}, ` +
      `${answer.errors.length} errors${answer.errors.length ? ` (first: row ${answer.errors[0]!.row}: ${answer.errors[0]!.message})` : ''}.`,
  );
  console.log(
    `Export: ${back.lines} data lines (${mb(Buffer.byteLength(out.text))}), ${back.mine} of them the file's members (the rest: the bench's admin); ` +
      (Object.keys(file.counts) as (keyof Counts)[]).map((k) => `${k} ${back.counts[k]}/${file.counts[k]}`).join(', '),
  );
  const complete =
    answer.created === TOTAL &&
    answer.errors.length === 0 &&
    dryAnswer.rows === TOTAL &&
    dryAnswer.errors.length === 0 &&
    back.mine === TOTAL &&
    back.lines === TOTAL + 1 &&
    (Object.keys(file.counts) as (keyof Counts)[]).every((k) => back.counts[k] === file.counts[k]);
  console.log(`\nEvery member imported and exported again: ${complete ? 'PASS' : 'FAIL'}`);
  console.log(
    `Import of ${TOTAL} under ${BUDGET.seconds} s: ${(imp.res.ms / 1000).toFixed(1)} s ${imp.res.ms < BUDGET.seconds * 1000 ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `Server memory growth under ${mb(BUDGET.growth)}: peak ${mb(imp.memory.rssPeakGrowth)} (gc before: ${imp.memory.gcExposed ? 'yes' : 'no'}; ` +
      `V8 heap limit ${mb(imp.memory.heapLimit)}, garbage counts until a collection) ` +
      `${imp.memory.rssPeakGrowth < BUDGET.growth ? 'PASS' : 'FAIL'}`,
  );
}

/** One run on a fresh database: dry run, import, export; prints the figures and the verdicts. */
async function run(label: string, tmp: string, startChild: StartChild, env: Record<string, string>, file: ReturnType<typeof membersFile>) {
  const dataDir = path.join(tmp, 'members-data');
  const tokensFile = path.join(tmp, 'members-admin.json');
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startChild('scripts/bench/members-server.ts', {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    EMAIL_WORKER: 'false',
    AUTH_SEED_DEMO: 'false',
    AUTH_BCRYPT_COST: '4',
    BENCH_TOKENS_FILE: tokensFile,
    // The heap of the machine the product runs on (fly.toml: 512 MB, half of it for V8's heap): left to size
    // itself from this 24 GB machine, V8 would let garbage reach gigabytes before collecting it, and the
    // peak would measure its laziness, not what the import needs (`--heap=default` measures that instead).
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc ${HEAP_FLAG}`.trim(),
    ...env,
  });
  try {
    const { token, probe } = JSON.parse(readFileSync(tokensFile, 'utf8')) as { token: string; probe: string };
    const auth = { authorization: `Bearer ${token}` };
    const body = Buffer.from(file.csv, 'utf8');
    const measured = async (fn: () => ReturnType<typeof call>) => {
      await call(`${probe}/reset`, 'POST', {});
      const res = await fn();
      const memory = JSON.parse((await call(`${probe}/report`, 'GET', {})).text) as Report;
      if (res.status !== 200) throw new Error(`${label}: answered ${res.status}: ${res.text.slice(0, 500)}`);
      return { res, memory };
    };
    const importUrl = `${server.url}/api/admin/members/import`;
    const csvHeaders = { ...auth, 'content-type': 'text/csv' };
    // A first small dry run warms the route and the database up, so the measured dry run's baseline is steady.
    const first = file.csv.slice(0, file.csv.indexOf('\n', file.csv.indexOf('\n') + 1) + 1);
    await call(`${importUrl}?dryRun=1`, 'POST', csvHeaders, Buffer.from(first, 'utf8'));
    const dry = await measured(() => call(`${importUrl}?dryRun=1`, 'POST', csvHeaders, body));
    const dryAnswer = JSON.parse(dry.res.text) as { rows: number; errors: unknown[] };
    const imp = await measured(() => call(importUrl, 'POST', csvHeaders, body));
    const answer = JSON.parse(imp.res.text) as { created: number; updated: number; errors: { row: number; message: string }[] };
    const out = await call(`${server.url}/api/admin/members/export.csv`, 'GET', auth);
    if (out.status !== 200) throw new Error(`${label}: the export answered ${out.status}`);
    const back = exported(out.text, file.emails);

    printRun(label, file, { dry, dryAnswer, imp, answer, out, back });
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function membersBench(tmp: string, startChild: StartChild, rounds = 1) {
  console.log(`\n## Members: a ${TOTAL.toLocaleString('en')}-row file imported (wall time, server memory), checked and exported again`);
  const started = performance.now();
  const file = membersFile(new Date());
  const seconds = (performance.now() - started) / 1000;
  const c = file.counts;
  console.log(
    `\nFile: ${TOTAL} members, ${mb(Buffer.byteLength(file.csv))} (generated in ${seconds.toFixed(1)} s): ${c.labelled} with labels, ` +
      `${c.comps} comps, ${c.confirmed} confirmed with consent, ${c.pending} pending and not bounced (a double opt-in mail each), ` +
      `${c.suppressed} bounced, ${c.utm} with a sign-up source; ${rounds} run${rounds > 1 ? 's' : ''} per database, each on a fresh one.`,
  );
  for (let i = 1; i <= rounds; i++)
    await run(`Embedded PGlite (the database inside the server process), run ${i}`, tmp, startChild, {}, file);
  const pg = await startPostgres();
  try {
    for (let i = 1; i <= rounds; i++) {
      const url = await createTestDatabase(pg.adminUrl, 'bench_members');
      await run(`Postgres (a server of its own), run ${i}`, tmp, startChild, { DATABASE_URL: url }, file);
    }
  } finally {
    await pg.stop();
  }
}
