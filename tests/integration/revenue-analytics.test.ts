/**
 * Revenue analytics on a scripted history (issue 35, item 4): billing runs through the Stripe
 * adapter against the Stripe fake, whose clock stands where the script says (a test clock), and
 * billing's own clock follows it, so four months of 2031 happen in a few seconds. Checkouts,
 * confirms, plan changes and cancels go through our API; renewals are the fake's, announced by
 * signed webhooks. The report and its CSV must match figures worked out by hand, to the cent.
 *
 * The script (all at 12:00 UTC):
 *   Jan 5   A Subscriber monthly 999, B Subscriber yearly 9590 (799 a month), E Subscriber monthly 999
 *   Feb 5   A and E renew (999 each); E cancels at the period end
 *   Feb 10  C Premium monthly 1999 with HALF (50 % off, repeating 1 month): pays 1000, counts 1000
 *   Feb 19  A upgrades to Premium monthly half-way through the period: charged 1000 - 500 = 500
 *   Mar 1   T starts a 7-day trial of Subscriber yearly (counts nothing)
 *   Mar 2   B cancels at the period end (still counts: it ends in January 2032)
 *   Mar 5   A renews at 1999; E's period ends: churned 999
 *   Mar 6   A schedules Subscriber monthly for its next renewal
 *   Mar 8   T's trial converts: 9590 paid, 799 a month (new)
 *   Mar 10  C renews at full price, the offer over: 1999 paid, expansion 999
 *   Mar 15  P buys the Social Media Content Pack once: 2400
 *   Apr 2   E subscribes again (Subscriber monthly 999): reactivation
 *   Apr 5   A renews on Subscriber monthly: 999 paid, contraction 1000
 *   Apr 10  C renews: 1999
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevenueReport } from '../../functions/analytics/service.ts';
import { subscriptions } from '../../functions/payments/tables.ts';
import { revenueMovements } from '../../functions/payments/revenue/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { apiCaller, memberMaker } from '../support/callers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { signedEvent, startStripeFake, type StripeFake } from '../support/stripe-fake.ts';

const WEBHOOK_SECRET = 'whsec_revenue_analytics_test_secret';
const SUCCESS = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';
const at = (day: string) => new Date(`2031-${day}T12:00:00.000Z`);

describe.each(DATABASE_KINDS)('revenue analytics on a scripted Stripe history (%s)', (kind) => {
  let fake: StripeFake;
  let t: TestApp;
  let now = at('01-05');
  let admin = '';
  let events = 0;
  let member: ReturnType<typeof memberMaker>;

  beforeAll(async () => {
    fake = await startStripeFake();
    fake.travelTo(now);
    t = await createTestApp(
      kind,
      undefined,
      {
        AUTH_BCRYPT_COST: '4',
        EMAIL_WORKER: 'false',
        STRIPE_SECRET_KEY: 'sk_test_revenue_analytics',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: `${fake.protocol}://${fake.host}:${fake.port}`,
      },
      { billingServiceClock: () => now },
    );
    member = memberMaker(t, `${kind}-revenue`);
    const boss = await member('Ada Admin');
    await t.services.users.assign(boss.id, 'admin', 'premium');
    admin = boss.token;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const call = (token: string | undefined, path: string, body?: unknown, method?: string) => apiCaller(t)(token, path, body, method);
  async function ok(res: Response | Promise<Response>, status = 200) {
    const answer = await res;
    expect(answer.status, await answer.clone().text()).toBe(status);
    return answer;
  }
  /** Both clocks (the fake's and billing's) to 12:00 UTC of a day of 2031. */
  const travel = (day: string) => {
    now = at(day);
    fake.travelTo(now);
  };
  /** A member's checkout of a plan or an item, paid at the fake and confirmed as the browser would. */
  async function checkout(token: string, body: Record<string, unknown>): Promise<string> {
    const res = await ok(call(token, '/api/payments/stripe/create-session', { successUrl: SUCCESS, cancelUrl: '/pricing', ...body }));
    const { sessionId } = (await res.json()) as { sessionId: string };
    const { subscription } = fake.completeSession(sessionId);
    await ok(call(token, '/api/payments/stripe/confirm', { sessionId }));
    return subscription?.id ?? sessionId;
  }
  /** A new member who subscribes to a plan; answers their token and subscription id. */
  async function subscriber(priceId: string, offerCode?: string) {
    const m = await member();
    return { ...m, sub: await checkout(m.token, { priceId, ...(offerCode ? { offerCode } : {}) }) };
  }
  /** The fake renews (or ends) a subscription at its period end, and Stripe's webhook tells us. */
  async function renew(subscriptionId: string) {
    fake.advancePeriod(subscriptionId);
    const event = {
      id: `evt_revenue_${kind}_${++events}`,
      object: 'event',
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: subscriptionId, object: 'subscription' } },
    };
    const { payload, header } = signedEvent(WEBHOOK_SECRET, event);
    await ok(
      t.app.request('/api/payments/stripe/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      }),
    );
  }

  it('reports each month’s recurring revenue, movements, members, churn, trials, offers and one-time revenue to the cent', async () => {
    // January.
    const a = await subscriber('price_subscriber_monthly');
    const b = await subscriber('price_subscriber_yearly');
    const e = await subscriber('price_subscriber_monthly');

    // February.
    travel('02-05');
    await renew(a.sub);
    await renew(e.sub);
    await ok(call(e.token, `/api/payments/stripe/subscriptions/${e.sub}/cancel`, {}));
    travel('02-10');
    await ok(
      call(admin, '/api/admin/payments/offers', {
        code: `HALF-${kind}`,
        kind: 'signup',
        percentOff: 50,
        duration: 'repeating',
        durationInMonths: 1,
        priceIds: ['price_premium_monthly'],
      }),
      201,
    );
    const c = await subscriber('price_premium_monthly', `HALF-${kind}`);
    travel('02-19');
    const upgrade = await ok(call(a.token, `/api/payments/stripe/subscriptions/${a.sub}/change`, { priceId: 'price_premium_monthly' }));
    expect(await upgrade.json()).toMatchObject({ change: 'upgraded', charged: 500 });

    // March.
    travel('03-01');
    await ok(call(admin, '/api/admin/payments/offers/trials/price_subscriber_yearly', { days: 7 }, 'PUT'));
    const trial = await subscriber('price_subscriber_yearly');
    travel('03-02');
    await ok(call(b.token, `/api/payments/stripe/subscriptions/${b.sub}/cancel`, {}));
    travel('03-05');
    await renew(a.sub);
    await renew(e.sub);
    travel('03-06');
    const held = await ok(call(a.token, `/api/payments/stripe/subscriptions/${a.sub}/change`, { priceId: 'price_subscriber_monthly' }));
    expect(await held.json()).toMatchObject({ change: 'scheduled' });
    travel('03-08');
    await renew(trial.sub);
    travel('03-10');
    await renew(c.sub);
    // A second look at the same state (a duplicate event, a read) records nothing more.
    await t.services.billing.sync(c.sub);
    travel('03-15');
    const buyer = await member();
    await checkout(buyer.token, { item: { type: 'market', slug: 'social-media-content-pack' } });

    // April.
    travel('04-02');
    const back = await checkout(e.token, { priceId: 'price_subscriber_monthly' });
    travel('04-05');
    await renew(a.sub);
    travel('04-10');
    await renew(c.sub);

    const res = await ok(call(admin, '/api/admin/analytics/revenue?from=2031-01&to=2031-04'));
    const report = (await res.json()) as RevenueReport;
    const row = (month: string, mrrStart: number, mrr: number, moves: number[], figures: number[], churn: (number | null)[]) => ({
      month,
      mrrStart,
      mrr,
      new: moves[0],
      reactivation: moves[1],
      expansion: moves[2],
      contraction: moves[3],
      churned: moves[4],
      payingMembers: figures[0],
      grossRevenue: figures[1],
      oneTimeRevenue: figures[2],
      trialsStarted: figures[3],
      trialsConverted: figures[4],
      offerRedemptions: figures[5],
      offerRevenue: figures[6],
      grossRevenueChurn: churn[0],
      netRevenueChurn: churn[1],
    });
    // Figures worked out by hand from the script above.
    expect(report.series).toEqual([
      // 999 + 799 + 999 new; paid 999 + 9590 + 999.
      row('2031-01', 0, 2797, [2797, 0, 0, 0, 0], [3, 11588, 0, 0, 0, 0, 0], [null, null]),
      // C new at 1000, A +1000; paid 999 + 999 + 1000 + 500; net churn -1000 / 2797.
      row('2031-02', 2797, 4797, [1000, 0, 1000, 0, 0], [4, 3498, 0, 0, 0, 1, 1000], [0, -3575]),
      // T new 799, C +999, E -999; paid 1999 + 9590 + 1999 + 2400; gross churn 999 / 4797.
      row('2031-03', 4797, 5596, [799, 0, 999, 0, 999], [4, 15988, 2400, 1, 1, 0, 1999], [2083, 0]),
      // E back +999, A -1000; paid 999 + 999 + 1999; churn 1000 / 5596.
      row('2031-04', 5596, 5595, [0, 999, 0, 1000, 0], [5, 3997, 0, 0, 0, 0, 1999], [1787, 1787]),
    ]);
    expect(report).toMatchObject({
      currency: 'usd',
      from: '2031-01',
      to: '2031-04',
      totals: {
        mrrStart: 0,
        mrr: 5595,
        new: 4596,
        reactivation: 999,
        expansion: 1999,
        contraction: 1000,
        churned: 999,
        payingMembers: 5,
        grossRevenue: 35071,
        oneTimeRevenue: 2400,
      },
      // (999 + 1000) / (0 + 2797 + 4797 + 5596), and net of 1999 expansion.
      churn: { grossRevenueChurn: 1516, netRevenueChurn: 0 },
      trials: { started: 1, converted: 1, conversionRate: 10_000 },
      offers: { redemptions: 1, revenue: 4998 },
    });
    // The reactivated member's new subscription, and no movement written twice.
    const moves = await t.database.db.select().from(revenueMovements);
    expect(moves.filter((m) => m.subscriptionId === back).map((m) => m.kind)).toEqual(['reactivation']);
    expect(moves.filter((m) => m.subscriptionId === c.sub).map((m) => [m.kind, m.mrrBefore, m.mrrAfter])).toEqual([
      ['new', 0, 1000],
      ['expansion', 1000, 1999],
    ]);
    expect((await t.database.db.select().from(subscriptions)).length).toBe(6);

    // A later range starts from the MRR before it and carries it through a quiet month.
    const later = (await (await ok(call(admin, '/api/admin/analytics/revenue?from=2031-03&to=2031-05'))).json()) as RevenueReport;
    expect(later.totals).toMatchObject({ mrrStart: 4797, mrr: 5595, payingMembers: 5, grossRevenue: 15988 + 3997 });
    expect(later.series.at(-1)).toMatchObject({ month: '2031-05', mrr: 5595, grossRevenue: 0, grossRevenueChurn: 0 });

    // The CSV holds the same series, one line a month.
    const csv = await ok(call(admin, '/api/admin/analytics/revenue.csv?from=2031-01&to=2031-04'));
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="revenue-2031-01-to-2031-04.csv"');
    expect((await csv.text()).split('\r\n')).toEqual([
      'month,mrr,new,reactivation,expansion,contraction,churned,paying_members,gross_revenue,one_time_revenue,' +
        'gross_revenue_churn_bps,net_revenue_churn_bps,trials_started,trials_converted,offer_redemptions,offer_revenue',
      '2031-01,2797,2797,0,0,0,0,3,11588,0,,,0,0,0,0',
      '2031-02,4797,1000,0,1000,0,0,4,3498,0,0,-3575,0,0,1,1000',
      '2031-03,5596,799,0,999,0,999,4,15988,2400,2083,0,1,1,0,1999',
      '2031-04,5595,0,999,0,1000,0,5,3997,0,1787,1787,0,0,0,1999',
      '',
    ]);
  });
});
