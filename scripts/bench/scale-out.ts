/**
 * `npm run bench -- --only=scale-out`: three instances behind nginx on one Postgres, S3 and SMTP
 * server (tests/support/cluster.ts); a bounded load of reads and writes through the balancer while
 * one instance is SIGKILLed and replaced; then what was read and failed, what was written and
 * stored, and what mail was queued and sent (budget: 0 failed reads, 0 missing acknowledged
 * writes, 0 lost or duplicated mails).
 */
import { inArray } from 'drizzle-orm';
import { openDatabase } from '../../functions/platform/db/client.ts';
import { contactMessages } from '../../functions/contact/tables.ts';
import { newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { DEMO_PASSWORD } from '../../functions/users/demo.ts';
import { startCluster } from '../../tests/support/cluster.ts';
import { quietLogger } from '../../tests/support/fixtures.ts';
import { createTestDatabase, startPostgres } from '../../tests/support/postgres.ts';
import { runScaleOutLoad } from '../../tests/support/scale-load.ts';

export async function scaleOutBench(distDir: string, seconds: number): Promise<void> {
  const postgres = await startPostgres();
  const url = await createTestDatabase(postgres.adminUrl, 'scale_bench');
  const cluster = await startCluster({ size: 3, databaseUrl: url, distDir });
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 }, quietLogger());
  try {
    const signIn = await fetch(`${cluster.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'premium@demo.beacongrowth.co', password: DEMO_PASSWORD }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const outcome = await runScaleOutLoad(cluster, {
      seconds,
      killAfterSeconds: seconds / 3,
      memberToken: token,
      course: 'ai-automation-playbook',
    });
    const stored =
      (await database.db.select().from(newsletterSubscribers).where(inArray(newsletterSubscribers.email, outcome.writes.newsletter)))
        .length + (await database.db.select().from(contactMessages).where(inArray(contactMessages.subject, outcome.writes.contact))).length;
    const acknowledged = outcome.writes.newsletter.length + outcome.writes.contact.length;
    const mail = await outcome.settleMail(database, 30_000);
    console.log(
      `\n## Scale-out: 3 instances behind nginx, one SIGKILLed after ${(seconds / 3).toFixed(1)} s of ${seconds} s and replaced\n`,
    );
    console.log(
      '| reads | failed reads | reads retried at the reload | writes sent | acknowledged (newsletter + contact) | stored | progress acknowledged | not acknowledged | mails queued | sent | missing | duplicated |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    console.log(
      `| ${outcome.reads.ok + outcome.reads.failed} | ${outcome.reads.failed} | ${outcome.reads.retried} | ${outcome.writes.attempted} | ${acknowledged} | ${stored} | ${outcome.writes.progress.length} | ${outcome.writes.refused} | ${mail.queued} | ${mail.sent} | ${mail.missing.length} | ${mail.duplicated.length} |`,
    );
    const pass = outcome.reads.failed === 0 && stored === acknowledged && mail.missing.length === 0 && mail.duplicated.length === 0;
    console.log(`\nGoal: 0 failed reads, 0 missing acknowledged writes, 0 lost or duplicated mails: ${pass ? 'PASS' : 'FAIL'}`);
  } finally {
    await database.close();
    await cluster.stop();
    await postgres.stop();
  }
}
