/**
 * Which routes a signed-out access token still opens (issue 17, "signed-out tokens change
 * nothing"). An access token stays cryptographically valid until it expires; what must stop the
 * moment its session ends also asks the auth service whether the session still exists. The rule,
 * route by route:
 * - `live`: every write, everything that mints a lasting credential (the member feed URL, portal
 *   and checkout sessions) and every read of other people's data (staff screens) needs a session
 *   that is still signed in: a signed-out token gets 401.
 * - `signature`: reads of the caller's own data and of gated content they are entitled to accept a
 *   valid signature until the token expires (the access token's lifetime bounds a stolen token).
 * - `auth`: the embedded auth service checks the session itself (GoTrue's 403 session_not_found).
 * Every route the app serves is in this table or in the public list, so a new route must say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { ErrorAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';

type Rule = 'live' | 'signature' | 'auth';
interface Row {
  route: string;
  rule: Rule;
  /** Staff routes are called with an admin's tokens, the rest with a member's. */
  as?: 'admin';
  path?: string;
  body?: unknown;
  /** Not called with the live token (it would delete the caller). */
  destructive?: boolean;
}

const COURSE = '/api/content/courses/ai-automation-playbook';
const EVENT = '/api/events/no-such-event';
const UUID = '00000000-0000-4000-8000-000000000001';
const TABLE: Row[] = [
  { route: 'GET /api/users/me', rule: 'signature' },
  { route: 'GET /api/users/byEmail/:email', rule: 'signature', path: '/api/users/byEmail/{email}' },
  {
    route: 'PUT /api/users/:id/accessLevel',
    rule: 'live',
    as: 'admin',
    path: `/api/users/${UUID}/accessLevel`,
    body: { accessLevel: 'free' },
  },
  { route: 'PATCH /api/users/me', rule: 'live', body: { name: 'Still me' } },
  { route: 'DELETE /api/users/me', rule: 'live', destructive: true },
  { route: 'GET /api/users/me/progress', rule: 'signature' },
  { route: 'GET /api/users/me/feed', rule: 'live' },
  { route: 'POST /api/users/me/feed/reset', rule: 'live' },
  { route: 'GET /api/users/me/export', rule: 'live' },
  { route: 'GET /api/content/courses/:slug/lessons/:lessonId', rule: 'signature', path: `${COURSE}/lessons/process-mapping` },
  {
    route: 'GET /api/content/courses/:slug/lessons/:lessonId/downloads/:index',
    rule: 'signature',
    path: `${COURSE}/lessons/process-mapping/downloads/0`,
  },
  { route: 'GET /api/content/courses/:slug/progress', rule: 'signature', path: `${COURSE}/progress` },
  { route: 'PUT /api/content/courses/:slug/progress', rule: 'live', path: `${COURSE}/progress`, body: { lessonId: 'process-mapping' } },
  { route: 'GET /api/content/blogs/:slug/body', rule: 'signature', path: '/api/content/blogs/ecommerce-launch-first-90-days/body' },
  { route: 'GET /api/content/tools/:slug/download', rule: 'signature', path: '/api/content/tools/no-such-tool/download' },
  { route: 'GET /api/content/market/:slug/download', rule: 'signature', path: '/api/content/market/no-such-item/download' },
  ...['blogs', 'tools', 'courses', 'market', 'events'].flatMap((segment): Row[] => [
    { route: `POST /api/content/${segment}`, rule: 'live', as: 'admin', body: {} },
    { route: `GET /api/content/${segment}/:id`, rule: 'live', as: 'admin', path: `/api/content/${segment}/${UUID}` },
    { route: `PATCH /api/content/${segment}/:id`, rule: 'live', as: 'admin', path: `/api/content/${segment}/${UUID}`, body: {} },
    { route: `DELETE /api/content/${segment}/:id`, rule: 'live', as: 'admin', path: `/api/content/${segment}/${UUID}` },
  ]),
  { route: 'GET /api/events', rule: 'signature' },
  { route: 'GET /api/payments/grants', rule: 'signature' },
  { route: 'GET /api/payments/gifts', rule: 'live' },
  {
    route: 'POST /api/payments/gifts',
    rule: 'live',
    body: { accessLevel: 'premium', months: 1, recipientEmail: 'live@example.com', successUrl: '/account', cancelUrl: '/gift' },
  },
  { route: 'POST /api/payments/gifts/:code/redeem', rule: 'live', path: '/api/payments/gifts/ABCDEFGHJKLMNPQRSTUV/redeem' },
  { route: 'GET /api/events/:slug/registration', rule: 'signature', path: `${EVENT}/registration` },
  { route: 'POST /api/events/:slug/registration', rule: 'live', path: `${EVENT}/registration` },
  { route: 'DELETE /api/events/:slug/registration', rule: 'live', path: `${EVENT}/registration` },
  { route: 'GET /api/events/:slug/join', rule: 'signature', path: `${EVENT}/join` },
  { route: 'GET /api/events/:slug/recording', rule: 'signature', path: `${EVENT}/recording` },
  // Site search reads gated text the caller is entitled to; staff's drafts are unpublished items, read from a live session like the edit form.
  { route: 'GET /api/search', rule: 'signature', path: '/api/search?q=launch' },
  { route: 'GET /api/search', rule: 'live', as: 'admin', path: '/api/search?q=launch&drafts=1' },
  { route: 'GET /api/admin/events/:slug/registrants', rule: 'live', as: 'admin', path: '/api/admin/events/no-such-event/registrants' },
  {
    route: 'GET /api/admin/events/:slug/registrants.csv',
    rule: 'live',
    as: 'admin',
    path: '/api/admin/events/no-such-event/registrants.csv',
  },
  ...newsletterRows(),
  ...supportRows(),
  ...moderationRows(),
  ...communityRows(),
  // The community's reply mails: the member's setting and a thread's mute.
  { route: 'GET /api/community/settings', rule: 'signature' },
  { route: 'PUT /api/community/settings', rule: 'live', body: { notifications: true } },
  { route: 'PUT /api/community/threads/:id/mute', rule: 'live', path: `/api/community/threads/${UUID}/mute`, body: { muted: true } },
  { route: 'GET /api/email/queue', rule: 'live', as: 'admin' },
  { route: 'GET /api/email/recent', rule: 'live', as: 'admin' },
  { route: 'POST /api/email/:segment{events|[0-9a-fA-F-]{36}}/resend', rule: 'live', as: 'admin', path: `/api/email/${UUID}/resend` },
  { route: 'GET /api/admin/overview', rule: 'live', as: 'admin' },
  { route: 'GET /api/admin/users', rule: 'live', as: 'admin' },
  { route: 'PATCH /api/admin/users/:id', rule: 'live', as: 'admin', path: `/api/admin/users/${UUID}`, body: { accessLevel: 'free' } },
  { route: 'GET /api/admin/content', rule: 'live', as: 'admin' },
  { route: 'GET /api/admin/payments/offers', rule: 'live', as: 'admin' },
  { route: 'GET /api/admin/analytics/revenue', rule: 'live', as: 'admin', path: '/api/admin/analytics/revenue?from=2030-01&to=2030-12' },
  { route: 'GET /api/admin/analytics/revenue.csv', rule: 'live', as: 'admin' },
  {
    route: 'POST /api/admin/payments/offers',
    rule: 'live',
    as: 'admin',
    body: { code: 'LIVE-OFFER', kind: 'signup', percentOff: 10, duration: 'once' },
  },
  {
    route: 'PUT /api/admin/payments/offers/trials/:priceId',
    rule: 'live',
    as: 'admin',
    path: '/api/admin/payments/offers/trials/price_free',
    body: { days: 0 },
  },
  { route: 'DELETE /api/admin/payments/offers/:id', rule: 'live', as: 'admin', path: `/api/admin/payments/offers/${UUID}` },
  ...webhookRows(),
  {
    route: 'GET /api/payments/stripe/subscriptions/:subscriptionId/retention-offer',
    rule: 'signature',
    path: '/api/payments/stripe/subscriptions/sub_missing/retention-offer',
  },
  {
    route: 'POST /api/payments/stripe/subscriptions/:subscriptionId/retention-offer',
    rule: 'live',
    path: '/api/payments/stripe/subscriptions/sub_missing/retention-offer',
    body: { code: 'KEEPME' },
  },
  { route: 'GET /api/admin/payments/members/:id/grants', rule: 'live', as: 'admin', path: `/api/admin/payments/members/${UUID}/grants` },
  {
    route: 'POST /api/admin/payments/members/:id/comps',
    rule: 'live',
    as: 'admin',
    path: `/api/admin/payments/members/${UUID}/comps`,
    body: { accessLevel: 'premium' },
  },
  {
    route: 'DELETE /api/admin/payments/members/:id/comps/:compId',
    rule: 'live',
    as: 'admin',
    path: `/api/admin/payments/members/${UUID}/comps/${UUID}`,
  },
  { route: 'GET /api/admin/audit', rule: 'live', as: 'admin' },
  { route: 'GET /api/admin/members/export.csv', rule: 'live', as: 'admin' },
  { route: 'POST /api/admin/members/import', rule: 'live', as: 'admin', path: '/api/admin/members/import?dryRun=1', body: {} },
  { route: 'GET /api/admin/members/labels', rule: 'live', as: 'admin' },
  { route: 'POST /api/admin/members/labels', rule: 'live', as: 'admin', body: { filter: { q: 'nobody-at-all' }, add: ['Live'] } },
  { route: 'DELETE /api/admin/members/labels/:id', rule: 'live', as: 'admin', path: `/api/admin/members/labels/${UUID}` },
  { route: 'GET /api/admin/members/segments', rule: 'live', as: 'admin' },
  { route: 'POST /api/admin/members/segments', rule: 'live', as: 'admin', body: { name: 'Live segment', filter: {} } },
  { route: 'DELETE /api/admin/members/segments/:id', rule: 'live', as: 'admin', path: `/api/admin/members/segments/${UUID}` },
  { route: 'GET /api/admin/members/keys', rule: 'live', as: 'admin' },
  { route: 'POST /api/admin/members/keys', rule: 'live', as: 'admin', body: { name: 'Live key', scopes: ['read:members'] } },
  { route: 'DELETE /api/admin/members/keys/:id', rule: 'live', as: 'admin', path: `/api/admin/members/keys/${UUID}` },
  { route: 'POST /api/upload', rule: 'live', as: 'admin', body: {} },
  { route: 'POST /api/upload/presign', rule: 'live', as: 'admin', body: { area: 'public', contentType: 'image/png', size: 100 } },
  { route: 'POST /api/upload/complete', rule: 'live', as: 'admin', body: { key: '0123456789abcdef0123456789abcdef.png' } },
  { route: 'POST /openai/generate', rule: 'live', as: 'admin', body: {} },
  {
    route: 'POST /api/payments/stripe/create-session',
    rule: 'live',
    body: { priceId: 'price_premium_monthly', successUrl: '/account', cancelUrl: '/pricing' },
  },
  { route: 'POST /api/payments/stripe/confirm', rule: 'live', body: { sessionId: 'cs_test_missing' } },
  {
    route: 'GET /api/payments/stripe/subscriptions/:customerId',
    rule: 'signature',
    path: '/api/payments/stripe/subscriptions/cus_missing',
  },
  {
    route: 'POST /api/payments/stripe/subscriptions/:subscriptionId/cancel',
    rule: 'live',
    path: '/api/payments/stripe/subscriptions/sub_missing/cancel',
  },
  { route: 'POST /api/payments/stripe/create-portal-session', rule: 'live', body: { customerId: 'cus_missing', returnUrl: '/account' } },
  {
    route: 'POST /api/payments/stripe/subscriptions/:subscriptionId/change',
    rule: 'live',
    path: '/api/payments/stripe/subscriptions/sub_missing/change',
    body: { priceId: 'price_premium_monthly' },
  },
  { route: 'GET /api/payments/subscription', rule: 'signature' },
  { route: 'GET /api/payments/purchases', rule: 'live' },
  { route: 'GET /auth/v1/user', rule: 'auth' },
  { route: 'PUT /auth/v1/user', rule: 'auth', body: { data: { theme: 'dark' } } },
  { route: 'GET /auth/v1/reauthenticate', rule: 'auth' },
  { route: 'POST /auth/v1/logout', rule: 'auth', destructive: true },
];

/** The staff newsletter API (writes live; reads hold no one's personal data) and an archived issue's body. */
function newsletterRows(): Row[] {
  const issue = `/api/admin/newsletter/issues/${UUID}`;
  const input = { subject: 'Live table', previewText: '', body: 'Body', accessLevel: 'free', audience: ['newsletter'] };
  return [
    { route: 'POST /api/admin/newsletter/issues', rule: 'live', as: 'admin', body: input },
    { route: 'GET /api/admin/newsletter/issues', rule: 'signature', as: 'admin' },
    {
      route: 'GET /api/admin/newsletter/audiences',
      rule: 'signature',
      as: 'admin',
      path: '/api/admin/newsletter/audiences?selected=premium',
    },
    { route: 'GET /api/admin/newsletter/issues/:id', rule: 'signature', as: 'admin', path: issue },
    { route: 'PUT /api/admin/newsletter/issues/:id', rule: 'live', as: 'admin', path: issue, body: input },
    { route: 'DELETE /api/admin/newsletter/issues/:id', rule: 'live', as: 'admin', path: issue },
    { route: 'GET /api/admin/newsletter/issues/:id/preview', rule: 'live', as: 'admin', path: `${issue}/preview?level=free` },
    { route: 'POST /api/admin/newsletter/issues/:id/test', rule: 'live', as: 'admin', path: `${issue}/test`, body: {} },
    { route: 'POST /api/admin/newsletter/issues/:id/send', rule: 'live', as: 'admin', path: `${issue}/send` },
    {
      route: 'POST /api/admin/newsletter/issues/:id/schedule',
      rule: 'live',
      as: 'admin',
      path: `${issue}/schedule`,
      body: { sendAt: '2030-01-01T09:00', timeZone: 'UTC' },
    },
    { route: 'POST /api/admin/newsletter/issues/:id/cancel', rule: 'live', as: 'admin', path: `${issue}/cancel` },
    {
      route: 'GET /api/admin/newsletter/articles/:slug',
      rule: 'signature',
      as: 'admin',
      path: '/api/admin/newsletter/articles/no-such-article',
    },
    { route: 'GET /api/newsletter/issues/:slug/body', rule: 'signature', path: '/api/newsletter/issues/no-such-issue/body' },
  ];
}

/** The community API: every write needs a live session; reads are the caller's own view of what they may read. */
function communityRows(): Row[] {
  const thread = `/api/community/threads/${UUID}`;
  const post = `/api/community/posts/${UUID}`;
  const lesson = '/api/community/comments/courses/ai-automation-playbook/lessons/process-mapping';
  const article = '/api/community/comments/blogs/ecommerce-launch-first-90-days';
  return [
    { route: 'GET /api/community/threads', rule: 'signature', path: '/api/community/threads?category=no-such-category' },
    { route: 'POST /api/community/threads', rule: 'live', body: { category: 'no-such-category', title: 'Live table', body: 'Hi' } },
    { route: 'GET /api/community/threads/:id', rule: 'signature', path: thread },
    { route: 'POST /api/community/threads/:id/replies', rule: 'live', path: `${thread}/replies`, body: { body: 'Hi' } },
    { route: 'GET /api/community/posts/:id/source', rule: 'signature', path: `${post}/source` },
    { route: 'PATCH /api/community/posts/:id', rule: 'live', path: post, body: { body: 'Hi' } },
    { route: 'DELETE /api/community/posts/:id', rule: 'live', path: post },
    { route: 'PUT /api/community/posts/:id/like', rule: 'live', path: `${post}/like` },
    { route: 'DELETE /api/community/posts/:id/like', rule: 'live', path: `${post}/like` },
    { route: 'GET /api/community/search', rule: 'signature', path: '/api/community/search?q=growth' },
    { route: 'GET /api/community/comments/blogs/:slug', rule: 'signature', path: article },
    { route: 'POST /api/community/comments/blogs/:slug', rule: 'live', path: article, body: { body: 'Hi' } },
    { route: 'GET /api/community/comments/courses/:slug/lessons/:lessonId', rule: 'signature', path: lesson },
    { route: 'POST /api/community/comments/courses/:slug/lessons/:lessonId', rule: 'live', path: lesson, body: { body: 'Hi' } },
  ];
}

/** Community moderation: a member's report is a write; every staff route names members (the queue, the log) or writes. */
function moderationRows(): Row[] {
  const base = '/api/admin/community';
  return [
    { route: 'POST /api/community/posts/:id/report', rule: 'live', path: `/api/community/posts/${UUID}/report`, body: {} },
    { route: `GET ${base}/queue`, rule: 'live', as: 'admin' },
    { route: `POST ${base}/posts/:id`, rule: 'live', as: 'admin', path: `${base}/posts/${UUID}`, body: { action: 'approve' } },
    { route: `POST ${base}/threads/:id`, rule: 'live', as: 'admin', path: `${base}/threads/${UUID}`, body: { action: 'pin' } },
    {
      route: `POST ${base}/members/:userId/suspension`,
      rule: 'live',
      as: 'admin',
      path: `${base}/members/${UUID}/suspension`,
      body: { suspended: true },
    },
    { route: `GET ${base}/log`, rule: 'live', as: 'admin' },
    { route: `GET ${base}/categories`, rule: 'live', as: 'admin' },
    { route: `POST ${base}/categories`, rule: 'live', as: 'admin', body: {} },
    { route: `PUT ${base}/categories/:slug`, rule: 'live', as: 'admin', path: `${base}/categories/no-such-category`, body: {} },
    { route: `DELETE ${base}/categories/:slug`, rule: 'live', as: 'admin', path: `${base}/categories/no-such-category` },
  ];
}

/**
 * The support desk: writes live; a member reading their own requests the signature; staff reading
 * other members' requests live (the rows ask as an admin, whose reads of the queue need it).
 */
function supportRows(): Row[] {
  const request = `/api/support/requests/${UUID}`;
  return [
    { route: 'GET /api/support/requests', rule: 'live', as: 'admin' },
    { route: 'POST /api/support/requests', rule: 'live', body: { subject: 'Live table', message: 'Hi' } },
    { route: 'GET /api/support/requests/:id', rule: 'live', as: 'admin', path: request },
    { route: 'PATCH /api/support/requests/:id', rule: 'live', as: 'admin', path: request, body: { status: 'closed' } },
    { route: 'POST /api/support/requests/:id/messages', rule: 'live', path: `${request}/messages`, body: { body: 'Hi' } },
    {
      route: 'GET /api/support/requests/:id/messages/:messageId/attachment',
      rule: 'live',
      as: 'admin',
      path: `${request}/messages/${UUID}/attachment`,
    },
    { route: 'GET /api/support/staff', rule: 'live', as: 'admin' },
    { route: 'POST /api/support/attachments', rule: 'live', body: { contentType: 'image/png', size: 1000 } },
  ];
}

/** Routes that take no access token at all (their own capability, a signature, or nothing). */
const PUBLIC = new Set([
  'GET /healthz',
  'GET /readyz',
  'POST /auth/v1/signup',
  'POST /auth/v1/token',
  'POST /auth/v1/recover',
  'POST /auth/v1/resend',
  'POST /auth/v1/otp',
  'GET /auth/v1/verify',
  'POST /auth/v1/verify',
  'GET /auth/v1/settings',
  'GET /auth/v1/.well-known/jwks.json',
  'GET /api/public/:segment',
  // The newsletter preview frame's signed link is its permission: a frame sends no bearer token.
  'GET /api/newsletter/previews/:token',
  'GET /api/public/:segment/:slug',
  'GET /api/payments/trials',
  'GET /api/payments/gifts/:code',
  // A sign-up offer's terms, for anyone (the pricing page's ?offer=).
  'GET /api/payments/offers/:code',
  'GET /api/community/categories',
  'POST /api/newsletter/subscribe',
  'POST /api/newsletter/confirm',
  'POST /api/newsletter/unsubscribe',
  // A community reply mail's links: the signed token is the capability.
  'POST /api/community/notifications/unsubscribe',
  'POST /api/community/notifications/mute',
  'GET /api/newsletter/issues',
  'POST /api/contact',
  'POST /api/leads',
  'GET /api/files/download',
  'GET /feeds/:token/rss.xml',
  'GET /events/:file{[a-z0-9-]+\\.ics}',
  'POST /api/email/:segment{events|[0-9a-fA-F-]{36}}',
  'GET /uploads/:key',
  // The public search index's files: the same for everyone.
  'GET /pagefind/*',
  'GET /api/payments/mode',
  'POST /api/payments/stripe/webhook',
  'GET /api/payments/test/checkout/:id',
  'POST /api/payments/test/checkout/:id/pay',
  'GET /api/payments/test/portal/:id',
  'POST /api/payments/test/portal/:id/subscriptions/:subscriptionId',
]);

/** Outbound webhooks' admin routes: every one needs a live session. */
function webhookRows(): Row[] {
  const base = '/api/admin/outbound';
  return [
    { route: `GET ${base}`, rule: 'live', as: 'admin' },
    { route: `POST ${base}`, rule: 'live', as: 'admin', body: { url: 'http://127.0.0.1:9/live', events: ['member.created'] } },
    { route: `PATCH ${base}/:id`, rule: 'live', as: 'admin', path: `${base}/${UUID}`, body: { enabled: true } },
    { route: `DELETE ${base}/:id`, rule: 'live', as: 'admin', path: `${base}/${UUID}` },
    { route: `POST ${base}/:id/rotate`, rule: 'live', as: 'admin', path: `${base}/${UUID}/rotate` },
    { route: `POST ${base}/:id/test`, rule: 'live', as: 'admin', path: `${base}/${UUID}/test` },
    { route: `GET ${base}/:id/deliveries`, rule: 'live', as: 'admin', path: `${base}/${UUID}/deliveries` },
    {
      route: `POST ${base}/:id/deliveries/:deliveryId/replay`,
      rule: 'live',
      as: 'admin',
      path: `${base}/${UUID}/deliveries/${UUID}/replay`,
    },
  ];
}

describe.each(DATABASE_KINDS)('signed-out tokens on %s', (kind) => {
  let t: TestApp;
  const tokens = { member: { live: '', out: '' }, admin: { live: '', out: '' } };
  const emails = { member: `live-member-${kind}@security.test`, admin: `live-admin-${kind}@security.test` };

  /** Two sign-ins of one account; the second is signed out at once (logout, scope local). */
  async function sessions(email: string) {
    const password = 'live session table';
    const live = await t.services.auth.signInWithPassword({ email, password });
    const out = await t.services.auth.signInWithPassword({ email, password });
    await t.services.auth.logout(`Bearer ${out.access_token}`, 'local');
    return { live: live.access_token, out: out.access_token };
  }

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    await t.services.auth.createConfirmedUser(emails.member, 'live session table', 'Member');
    const admin = await t.services.auth.createConfirmedUser(emails.admin, 'live session table', 'Admin');
    await t.services.users.assign(admin, 'admin', 'premium');
    tokens.member = await sessions(emails.member);
    tokens.admin = await sessions(emails.admin);
  });
  afterAll(() => t?.close());

  function call(row: Row, token: string) {
    const [method, route] = row.route.split(' ') as [string, string];
    const who = row.as ?? 'member';
    const path = (row.path ?? route).replace('{email}', encodeURIComponent(emails[who]));
    const body = row.body === undefined ? undefined : JSON.stringify(row.body);
    return t.app.request(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-forwarded-for': '203.0.113.40',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body } : {}),
    });
  }

  it('has a rule for every route that takes an access token', () => {
    const served = [...new Set(t.app.endpoints().map((r) => `${r.method} ${r.path}`))];
    const listed = new Set(TABLE.map((r) => r.route));
    expect(served.filter((r) => !listed.has(r) && !PUBLIC.has(r)).sort()).toEqual([]);
    expect([...listed].filter((r) => !served.includes(r)).sort()).toEqual([]);
  });

  it.each(TABLE)('$route: $rule', async (row) => {
    const who = row.as ?? 'member';
    const res = await call(row, tokens[who].out);
    if (row.rule === 'live') {
      expect(res.status, 'signed-out token').toBe(401);
      expect(((await res.json()) as ErrorAnswer).error.message).toMatch(/session has ended/);
    } else if (row.rule === 'auth') {
      expect(res.status, 'signed-out token').toBe(403);
      expect(await res.json()).toMatchObject({ error_code: 'session_not_found' });
    } else {
      expect(res.status, 'signed-out token').not.toBe(401);
      expect(res.status).toBeLessThan(500);
    }
    if (row.destructive) return;
    const live = await call(row, tokens[who].live);
    if (row.rule === 'auth') expect(live.status, 'live token').toBe(200);
    expect(live.status, 'live token').not.toBe(401);
    expect(live.status, 'live token').toBeLessThan(500);
  });
});
