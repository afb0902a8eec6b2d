/**
 * Payments budgets, against the API in its own process on embedded PGlite with the embedded
 * provider:
 *  - checkout create-session latency (p50 goal under 50 ms), first calls (which create the
 *    provider customer) and later ones alike;
 *  - 1,000 webhook events signed with the Stripe SDK's own test-header helper (700 distinct, 300
 *    duplicates, shuffled) replayed at the webhook with 8 in flight: events per second (goal at
 *    least 200/s), each distinct event applied once, every member's level right afterwards.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';

const MEMBERS = 100;
const DISTINCT = 700;
const DUPLICATES = 300;
const SECRET = 'whsec_payments_bench_secret_0001';
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';

type StartChild = (
  script: string,
  env: Record<string, string>,
) => Promise<{ url: string; child: { kill(signal?: NodeJS.Signals): boolean } }>;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

type Member = { id: string; token: string };
type Post = (url: string, body: unknown, token?: string) => Promise<Record<string, unknown>>;

/**
 * Checkout: every member opens three sessions (the first creates their customer); one in two pays.
 * Prints the create-session latencies; answers each member's expected level, their first sessions
 * and the paid ones.
 */
async function checkoutRound(post: Post, members: Member[]) {
  const first: number[] = [];
  const later: number[] = [];
  const expected = new Map<string, string>();
  const sessions: { member: (typeof members)[number]; sessionId: string }[] = [];
  for (const [i, member] of members.entries()) {
    const plan = i % 2 ? 'price_premium_monthly' : 'price_subscriber_monthly';
    for (let k = 0; k < 3; k++) {
      const started = performance.now();
      const { sessionId } = (await post(
        '/api/payments/stripe/create-session',
        { priceId: plan, successUrl: SUCCESS, cancelUrl: '/pricing' },
        member.token,
      )) as {
        sessionId: string;
      };
      (k === 0 ? first : later).push(performance.now() - started);
      if (k === 0) sessions.push({ member, sessionId });
    }
    expected.set(member.id, 'free');
  }
  const paid: string[] = [];
  for (const [i, { member, sessionId }] of sessions.entries()) {
    if (i % 4 >= 2) continue; // half the members never pay
    paid.push(sessionId);
    await post(`/api/payments/test/checkout/${sessionId}/pay`, { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' });
    expected.set(member.id, i % 2 ? 'premium' : 'subscriber');
  }
  const all = [...first, ...later].sort((a, b) => a - b);
  first.sort((a, b) => a - b);
  later.sort((a, b) => a - b);
  console.log('| create-session calls | count | p50 | p99 |\n|---|---|---|---|');
  console.log(
    `| first per member (creates the customer) | ${first.length} | ${percentile(first, 50).toFixed(1)} ms | ${percentile(first, 99).toFixed(1)} ms |`,
  );
  console.log(`| later | ${later.length} | ${percentile(later, 50).toFixed(1)} ms | ${percentile(later, 99).toFixed(1)} ms |`);
  console.log(`| all | ${all.length} | ${percentile(all, 50).toFixed(1)} ms | ${percentile(all, 99).toFixed(1)} ms |`);
  console.log(
    `\nCheckout create-session p50 ${percentile(all, 50).toFixed(1)} ms (goal < 50 ms): ${percentile(all, 50) < 50 ? 'PASS' : 'FAIL'}`,
  );

  return { expected, sessions, paid };
}

/** The subscriptions the events are about, as the provider has them (read through the owners' API). */
async function subscriptionsOf(serverUrl: string, members: Member[], sessions: { member: Member }[]): Promise<string[]> {
  const subs: string[] = [];
  for (const { member } of sessions) {
    const me = (await (
      await fetch(`${serverUrl}/api/users/byEmail/${encodeURIComponent(`bench-member-${members.indexOf(member)}@payments.bench`)}`, {
        headers: { authorization: `Bearer ${member.token}` },
      })
    ).json()) as {
      customerId: string | null;
    };
    if (!me.customerId) continue;
    const sub = (await (
      await fetch(`${serverUrl}/api/payments/stripe/subscriptions/${me.customerId}`, {
        headers: { authorization: `Bearer ${member.token}` },
      })
    ).json()) as {
      subscriptionId: string;
    } | null;
    if (sub) subs.push(sub.subscriptionId);
  }

  return subs;
}

/** `DISTINCT` webhook payloads of the event types billing applies, about the paid sessions and their subscriptions. */
function webhookEvents(paid: string[], subs: string[]): string[] {
  const types = [
    'customer.subscription.updated',
    'customer.subscription.created',
    'invoice.paid',
    'invoice.payment_failed',
    'checkout.session.completed',
  ];
  return Array.from({ length: DISTINCT }, (_, i) => {
    const type = types[i % types.length]!;
    const object =
      type === 'checkout.session.completed'
        ? { id: paid[i % paid.length], object: 'checkout.session' }
        : type.startsWith('invoice.')
          ? { id: `in_bench_${i}`, object: 'invoice', parent: { subscription_details: { subscription: subs[i % subs.length] } } }
          : { id: subs[i % subs.length], object: 'subscription' };
    return JSON.stringify({
      id: `evt_bench_${i}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000) - (i % 60),
      data: { object },
    });
  });
}

/** Each member's access level now. */
async function levelsOf(serverUrl: string, members: Member[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const member of members) {
    const me = (await (await fetch(`${serverUrl}/api/users/me`, { headers: { authorization: `Bearer ${member.token}` } })).json()) as {
      viewer: { accessLevel: string };
    };
    found.set(member.id, me.viewer.accessLevel);
  }
  return found;
}

/** Sends the payloads signed, eight at a time; answers how many events were applied and the seconds it took. */
async function replay(serverUrl: string, payloads: string[]): Promise<{ applied: number; seconds: number }> {
  const stripe = new Stripe('sk_test_bench_signing_only');
  let applied = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < payloads.length) {
        const payload = payloads[next++]!;
        const res = await fetch(`${serverUrl}/api/payments/stripe/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
          },
          body: payload,
        });
        if (!res.ok) throw new Error(`webhook: ${res.status} ${await res.text()}`);
        applied += ((await res.json()) as { applied: number }).applied;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  return { applied, seconds };
}

export async function paymentsBench(tmp: string, startChild: StartChild) {
  console.log('\n## Payments: checkout latency and signed webhook replay (embedded provider, PGlite)\n');
  const dataDir = path.join(tmp, 'payments-data');
  const tokensFile = path.join(tmp, 'payments-members.json');
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startChild('scripts/bench/payments-server.ts', {
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    EMAIL_WORKER: 'false',
    AUTH_SEED_DEMO: 'false',
    AUTH_BCRYPT_COST: '4',
    STRIPE_WEBHOOK_SECRET: SECRET,
    BENCH_MEMBERS: String(MEMBERS),
    BENCH_TOKENS_FILE: tokensFile,
  });
  try {
    const members = JSON.parse(readFileSync(tokensFile, 'utf8')) as { id: string; token: string }[];
    const post = async (url: string, body: unknown, token?: string) => {
      const res = await fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };

    const { expected, sessions, paid } = await checkoutRound(post, members);

    const subs = await subscriptionsOf(server.url, members, sessions);

    const distinct = webhookEvents(paid, subs);
    const levels = () => levelsOf(server.url, members);
    // Paid, but nothing applied yet: only the replay below can raise a level.
    const raisedBefore = [...(await levels()).values()].filter((level) => level !== 'free').length;
    const payloads = shuffle([...distinct, ...Array.from({ length: DUPLICATES }, () => distinct[Math.floor(Math.random() * DISTINCT)]!)]);
    const { applied, seconds } = await replay(server.url, payloads);

    const after = await levels();
    const wrong = members.filter((member) => after.get(member.id) !== expected.get(member.id)).length;
    const raised = [...after.values()].filter((level) => level !== 'free').length;
    const rate = payloads.length / seconds;
    console.log(
      `\n| events sent | distinct | applied | seconds | events/s | paid levels before → after | members with a wrong level |\n|---|---|---|---|---|---|---|`,
    );
    console.log(
      `| ${payloads.length} | ${DISTINCT} | ${applied} | ${seconds.toFixed(2)} | ${rate.toFixed(0)} | ${raisedBefore} → ${raised} | ${wrong} of ${members.length} |`,
    );
    const ok = applied === DISTINCT && wrong === 0 && raisedBefore === 0 && raised === paid.length;
    console.log(
      `\nEach distinct event applied once and every level right: ${ok ? 'PASS' : 'FAIL'}; ${rate.toFixed(0)} events/s (goal >= 200/s): ${rate >= 200 ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    server.child.kill('SIGTERM');
  }
}
