/**
 * A bounded load through the cluster's balancer while one instance is SIGKILLed and replaced: reads
 * (pages and public API) and writes that queue mail (newsletter sign-ups, contact messages) or
 * store progress. Answers what was read, which writes were acknowledged (2xx), and, once the mail
 * has settled, which queued messages the SMTP server received never or more than once. Used by the
 * scale-out test and `npm run bench -- --only=scale-out`.
 */
import { randomUUID } from 'node:crypto';
import { gte } from 'drizzle-orm';
import type { Database } from '../../functions/platform/db/client.ts';
import { emails } from '../../functions/email/tables.ts';
import type { PublicItemOf } from '#shared/content/registry.ts';
import type { Cluster } from './cluster.ts';

export interface LoadOptions {
  seconds: number;
  /** When to SIGKILL instance 1 (a replacement starts at once). */
  killAfterSeconds: number;
  /** A member with access to `course`, for progress writes. */
  memberToken: string;
  course: string;
  readers?: number;
  writers?: number;
}

export interface LoadOutcome {
  /** `retried`: reads sent again once after their connection to the balancer closed before an answer, as browsers do. */
  reads: { ok: number; failed: number; retried: number; failures: string[] };
  writes: { attempted: number; newsletter: string[]; contact: string[]; progress: string[]; refused: number };
  /** Waits until every mail queued since the load began is sent, then compares with what the SMTP server received. */
  /** `duplicated`: mails the SMTP server got more than once, with how many copies and how many times a worker claimed each. */
  settleMail(
    database: Database,
    timeoutMs: number,
  ): Promise<{ queued: number; sent: number; missing: string[]; duplicated: { id: string; copies: number; attempts: number }[] }>;
}

/** Readers when the options name none. */
export const DEFAULT_READERS = 6;

const READS = ['/', '/blog', '/pricing', '/api/public/blogs', '/api/public/courses', '/sitemap.xml', '/rss.xml'];
let addresses = 0;
/** A client address of its own per write, so per-address form limits stay out of the way. */
const client = () => {
  addresses += 1;
  return `10.${100 + Math.floor(addresses / 60000)}.${Math.floor(addresses / 250) % 250}.${1 + (addresses % 250)}`;
};

export async function runScaleOutLoad(cluster: Cluster, options: LoadOptions): Promise<LoadOutcome> {
  const started = new Date(Date.now() - 1_000);
  const until = Date.now() + options.seconds * 1000;
  const reads = { ok: 0, failed: 0, retried: 0, failures: [] as string[] };
  const writes = { attempted: 0, newsletter: [] as string[], contact: [] as string[], progress: [] as string[], refused: 0 };
  const course = (await (await fetch(`${cluster.url}/api/public/courses/${options.course}`)).json()) as PublicItemOf<'course'>;
  const lessons = course.sections.flatMap((s) => s.lessons.map((l) => l.id));

  /** From the kill until a second after the replacement is in the balancer (its reload closes idle client connections). */
  const reload: { from?: number; until?: number } = {};
  const duringReload = (now: number) =>
    reload.from !== undefined && now >= reload.from && (reload.until === undefined || now <= reload.until);

  /**
   * A GET sent again once when its connection fails before any answer while the balancer reloads: what a browser
   * does when a kept-alive connection closes under it. Any other failure, or a second one, counts as failed.
   */
  async function get(url: string): Promise<Response> {
    try {
      return await fetch(url);
    } catch (err) {
      if (!duringReload(Date.now())) throw err;
      reads.retried += 1;
      return await fetch(url);
    }
  }

  async function reader(n: number) {
    for (let i = n; Date.now() < until; i += 1) {
      const path = READS[i % READS.length]!;
      try {
        const res = await get(`${cluster.url}${path}`);
        await res.arrayBuffer();
        if (res.status < 400) reads.ok += 1;
        else {
          reads.failed += 1;
          reads.failures.push(`${path}: ${res.status}`);
        }
      } catch (err) {
        reads.failed += 1;
        reads.failures.push(`${path}: ${(err as Error).message}`);
      }
    }
  }

  async function write(kind: number): Promise<void> {
    writes.attempted += 1;
    const id = randomUUID().slice(0, 12);
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': client() };
    try {
      if (kind === 0) {
        const email = `load-${id}@example.com`;
        const res = await fetch(`${cluster.url}/api/newsletter/subscribe`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email, source: '/blog' }),
        });
        if (res.ok) writes.newsletter.push(email);
        else writes.refused += 1;
      } else if (kind === 1) {
        const subject = `Load test ${id}`;
        const res = await fetch(`${cluster.url}/api/contact`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: 'Load Tester',
            email: `contact-${id}@example.com`,
            subject,
            message: 'Written during the scale-out load.',
          }),
        });
        if (res.ok) writes.contact.push(subject);
        else writes.refused += 1;
      } else {
        const lessonId = lessons[writes.attempted % lessons.length]!;
        const res = await fetch(`${cluster.url}/api/content/courses/${options.course}/progress`, {
          method: 'PUT',
          headers: { ...headers, authorization: `Bearer ${options.memberToken}` },
          body: JSON.stringify({ lessonId, completed: true }),
        });
        if (res.ok) writes.progress.push(lessonId);
        else writes.refused += 1;
      }
    } catch {
      // The connection went down with the instance: not acknowledged, so not counted as written.
      writes.refused += 1;
    }
  }

  async function writer(n: number) {
    for (let i = n; Date.now() < until; i += 1) await write(i % 3);
  }

  let replacing: Promise<unknown> | undefined;
  const killer = new Promise<void>((resolve) =>
    setTimeout(() => {
      reload.from = Date.now();
      cluster.kill(1);
      replacing = cluster.replace(1).then(() => {
        reload.until = Date.now() + 1_000;
      });
      resolve();
    }, options.killAfterSeconds * 1000),
  );
  await Promise.all([
    ...Array.from({ length: options.readers ?? DEFAULT_READERS }, (_, n) => reader(n)),
    ...Array.from({ length: options.writers ?? 3 }, (_, n) => writer(n)),
    killer,
  ]);
  await replacing;

  return {
    reads,
    writes,
    async settleMail(database, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      let rows: { id: string; status: string; attempts: number }[] = [];
      for (;;) {
        rows = await database.db
          .select({ id: emails.id, status: emails.status, attempts: emails.attempts })
          .from(emails)
          .where(gte(emails.createdAt, started));
        if (rows.every((r) => r.status !== 'queued')) break;
        if (Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const counts = new Map<string, number>();
      for (const mail of cluster.smtp.received) {
        const id = /<([0-9a-f-]{36})@/.exec(mail.messageId)?.[1];
        if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return {
        queued: rows.length,
        sent: rows.filter((r) => r.status === 'sent').length,
        missing: rows.filter((r) => !counts.has(r.id)).map((r) => `${r.id} (${r.status})`),
        duplicated: rows
          .filter((r) => (counts.get(r.id) ?? 0) > 1)
          .map((r) => ({ id: r.id, copies: counts.get(r.id)!, attempts: r.attempts })),
      };
    },
  };
}
