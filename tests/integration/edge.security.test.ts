/**
 * The bad-input suite for the API: every route the app registers, tried from outside with each class
 * of hostile input (control characters in every text field, bodies whose type does not match their
 * bytes, cross-site writes, wrong methods, hostile path and query values). Each must answer a 4xx in
 * the one error shape with a request id, never a 5xx, and write nothing to the database (the outbox
 * there is where every email starts). A route added without a sample here fails the first test.
 * Pages get the same treatment against the real server in pages.security.test.ts.
 */
import { Readable } from 'node:stream';
import { getRouterName } from 'hono/dev';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { embeddedWebhookSecret } from '../../functions/payments/index.ts';
import { EMAIL_POST_SEGMENT, signWebhook } from '../../functions/email/routes.ts';
import { loadSigningSecret } from '../../functions/platform/secrets/service.ts';
import { createSecretStore } from '../../functions/platform/secrets/store.ts';
import { eq } from 'drizzle-orm';
import { emails } from '../../functions/email/tables.ts';
import { newsletterSubscribers } from '../../functions/newsletter/tables.ts';
import { profiles } from '../../functions/users/tables.ts';
import { gifts } from '../../functions/payments/gifts/tables.ts';
import { communityCategories, communityThreads } from '../../functions/community/tables.ts';
import { mailLinks } from '../../functions/community/notifications/round.ts';
import { rateLimits } from '../../functions/platform/abuse/tables.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import type { ErrorAnswer } from '../support/answers.ts';
import { DATABASE_KINDS } from '../support/databases.ts';
import { rowCounts } from '../support/db-snapshot.ts';
import { startS3 } from '../support/s3.ts';
import { tempDir } from '../support/temp.ts';
import { multipart, PDF, PNG } from '../support/uploads.ts';
import { createEvent } from '../support/events.ts';
import { INPUT_BUILDERS } from '../support/fixtures.ts';
import { CONTENT_TYPE_INFO, CONTENT_TYPES } from '#shared/content/registry.ts';

const WEBHOOK_SECRET = 'edge-suite-webhook-secret';
const stripe = new Stripe('sk_test_signing_only');
let paymentsSecret = '';

/** The signature header a signed sample's body needs. */
function signatureFor(route: Sample, body: string): Record<string, string> {
  if (route.signed === 'stripe')
    return { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: paymentsSecret }) };
  return route.signed ? { 'x-webhook-signature': signWebhook(WEBHOOK_SECRET, body) } : {};
}

interface Sample {
  /** A concrete path for the route. */
  path: string;
  /** A valid JSON body (write routes). */
  body?: Record<string, unknown>;
  /** Sign the body as the mail provider's webhook does, or (`stripe`) as the payment provider's does. */
  signed?: boolean | 'stripe';
  /** Also serves plain HTML form posts. */
  forms?: boolean;
  /** Request headers every try carries (a signed-in member's access token). */
  headers?: Record<string, string>;
  /** The methods the path answers, when not the route's own (GET, HEAD) or POST. */
  allow?: string;
  /** A valid multipart/form-data body (file uploads), sent instead of JSON. */
  multipart?: { body: Buffer; contentType: string };
}

/** One valid request per route; each hostile class varies it. Keyed as Hono lists routes. */
async function samples(t: TestApp): Promise<Record<string, Sample>> {
  const tool = (await t.content.list('tool')).find((i) => i.accessLevel === 'free' && i.downloadUrl)!;
  await t.services.newsletter.subscribe('edge-suite@example.com', '/');
  const [subscriber] = await t.database.db.select().from(newsletterSubscribers);
  const confirm = await t.services.tokens.sign('newsletter-confirm', { sub: subscriber!.id, v: subscriber!.tokenVersion });
  const unsubscribe = await t.services.tokens.sign('newsletter-unsubscribe', { sub: subscriber!.id });
  const download = new URL(await t.services.downloads.link(tool.downloadUrl!, 600));
  const member = async (email: string) => {
    const id = await t.services.auth.createConfirmedUser(email, 'edge suite password', 'Edge');
    const session = await t.services.auth.signInWithPassword({ email, password: 'edge suite password' });
    return { id, headers: { authorization: `Bearer ${session.access_token}` } };
  };
  const admin = await member('edge-admin@example.com');
  await t.services.users.assign(admin.id, 'admin', 'premium');
  const doomed = await member('edge-doomed@example.com');
  const feed = new URL(
    (await t.services.feeds.url({ id: admin.id, email: 'edge-admin@example.com', role: 'admin', accessLevel: 'premium' })).url,
  );
  const course = '/api/content/courses/ai-automation-playbook';
  // Payments: a member with a paid subscription, and an open checkout for the test checkout page.
  paymentsSecret = embeddedWebhookSecret(await loadSigningSecret(createSecretStore(t.database.db)));
  const payer = await member('edge-payer@example.com');
  const viewerOf = async (id: string, email: string) => ({ id, email, role: 'member' as const, accessLevel: 'free' as const });
  const success = '/payment/confirmation?session_id={CHECKOUT_SESSION_ID}&payment_status=success';
  const paid = await t.services.billing.createSession(await viewerOf(payer.id, 'edge-payer@example.com'), {
    priceId: 'price_subscriber_monthly',
    successUrl: success,
    cancelUrl: '/pricing',
  });
  const pages = t.services.embeddedBilling!.testPages;
  await pages.pay(paid.sessionId, { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' });
  await t.services.billing.confirm(await viewerOf(payer.id, 'edge-payer@example.com'), paid.sessionId);
  const [payerProfile] = await t.database.db.select().from(profiles).where(eq(profiles.id, payer.id));
  const customerId = payerProfile!.customerId!;
  const [subscription] = await t.services.billing.provider.listSubscriptions(customerId);
  // A paid gift (the payer's), for its preview and its redemption by the shopper.
  const bought = await t.services.billing.createSession(await viewerOf(payer.id, 'edge-payer@example.com'), {
    gift: { accessLevel: 'subscriber', months: 1, recipientEmail: 'edge-friend@example.com' },
    successUrl: '/account',
    cancelUrl: '/gift',
  });
  await pages.pay(bought.sessionId, { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' });
  await t.services.billing.confirm(await viewerOf(payer.id, 'edge-payer@example.com'), bought.sessionId);
  const [gift] = await t.database.db.select().from(gifts).where(eq(gifts.sessionId, bought.sessionId));
  // A retention offer for the payer's cancel confirmation (taken by its sample, before the cancel's).
  await t.services.billing.offers.create(admin.id, { code: 'EDGE-STAY', kind: 'retention', percentOff: 25, duration: 'once' });
  // A sign-up offer whose public terms its sample reads.
  await t.services.billing.offers.create(admin.id, { code: 'EDGE-JOIN', kind: 'signup', percentOff: 10, duration: 'once' });
  const shopper = await member('edge-shopper@example.com');
  const open = await t.services.billing.createSession(await viewerOf(shopper.id, 'edge-shopper@example.com'), {
    priceId: 'price_premium_yearly',
    successUrl: success,
    cancelUrl: '/pricing',
  });
  const portal = new URL(
    (await t.services.billing.provider.createPortalSession({ customerId, returnUrl: `${t.config.siteUrl}/account` })).url,
  );
  const portalId = portal.searchParams.get('session')!;
  const image = multipart([{ field: 'file', filename: 'edge.png', type: 'image/png', body: PNG }]);
  const uploaded = await t.services.uploads.receive(Readable.from([image.body]), image.contentType, 'public');
  // A file a browser sent straight to the bucket, for the completion sample (which is idempotent).
  const offer = await t.services.directUploads.register(admin.id, { area: 'public', contentType: 'image/png', size: PNG.length });
  if (!offer.direct) throw new Error('the suite runs on a bucket, which takes direct uploads');
  await fetch(offer.url, { method: 'PUT', headers: offer.headers, body: PNG });
  const sent = offer.key;
  return {
    'GET /healthz': { path: '/healthz' },
    'POST /api/upload': {
      path: '/api/upload',
      headers: admin.headers,
      multipart: multipart([{ field: 'file', filename: 'edge.png', type: 'image/png', body: PNG }]),
    },
    'POST /api/upload/presign': {
      path: '/api/upload/presign',
      headers: admin.headers,
      body: { area: 'protected', contentType: 'application/pdf', size: 2048 },
    },
    'POST /api/upload/complete': { path: '/api/upload/complete', headers: admin.headers, body: { key: sent } },
    'GET /uploads/:key': { path: uploaded.url },
    'GET /pagefind/*': { path: '/pagefind/pagefind-entry.json' },
    'GET /readyz': { path: '/readyz' },
    'GET /api/public/:segment': { path: '/api/public/blogs' },
    'GET /api/public/:segment/:slug': { path: `/api/public/tools/${tool.slug}` },
    'GET /api/files/download': { path: `${download.pathname}${download.search}` },
    'POST /api/newsletter/subscribe': { path: '/api/newsletter/subscribe', body: { email: 'edge-new@example.com', source: '/blog' } },
    'POST /api/newsletter/confirm': { path: '/api/newsletter/confirm', body: { token: confirm }, forms: true },
    'POST /api/newsletter/unsubscribe': { path: '/api/newsletter/unsubscribe', body: { token: unsubscribe }, forms: true },
    'POST /api/contact': {
      path: '/api/contact',
      body: { name: 'Ada Lovelace', email: 'ada@example.com', subject: 'Local SEO', message: 'Two bakeries.\nCan you help?' },
    },
    'POST /api/leads': {
      path: '/api/leads',
      body: { name: 'Grace', email: 'grace@example.com', phone: '+1 410 555 0100', toolId: tool.slug },
    },
    'GET /api/users/byEmail/:email': { path: '/api/users/byEmail/edge-admin%40example.com', headers: admin.headers },
    'GET /api/users/me/export': { path: '/api/users/me/export', headers: admin.headers },
    'GET /api/users/me': { path: '/api/users/me', headers: admin.headers, allow: 'GET, HEAD, PATCH, DELETE' },
    'PATCH /api/users/me': {
      path: '/api/users/me',
      body: { name: 'Edge Admin', language: 'fr' },
      headers: admin.headers,
      allow: 'GET, HEAD, PATCH, DELETE',
    },
    'PUT /api/users/:id/accessLevel': {
      path: `/api/users/${doomed.id}/accessLevel`,
      body: { accessLevel: 'subscriber' },
      headers: admin.headers,
      allow: 'PUT',
    },
    'GET /api/users/me/progress': { path: '/api/users/me/progress', headers: admin.headers },
    ...(await adminSamples(t, admin.headers)),
    ...(await webhookSamples(t, admin)),
    'GET /api/users/me/feed': { path: '/api/users/me/feed', headers: admin.headers },
    'GET /feeds/:token/rss.xml': { path: feed.pathname },
    // After the feed: resetting revokes its link.
    'POST /api/users/me/feed/reset': { path: '/api/users/me/feed/reset', headers: admin.headers },
    'GET /api/content/blogs/:slug/body': { path: '/api/content/blogs/ecommerce-launch-first-90-days/body', headers: admin.headers },
    // Site search: staff's drafts need a live session, which the admin's headers carry.
    'GET /api/search': { path: '/api/search?q=launch&drafts=1', headers: admin.headers },
    'GET /api/content/tools/:slug/download': { path: `/api/content/tools/${tool.slug}/download`, headers: admin.headers },
    'GET /api/content/market/:slug/download': { path: '/api/content/market/website-wireframe-kit/download', headers: admin.headers },
    'GET /api/content/courses/:slug/lessons/:lessonId': { path: `${course}/lessons/process-mapping`, headers: admin.headers },
    'GET /api/content/courses/:slug/lessons/:lessonId/downloads/:index': {
      path: `${course}/lessons/process-mapping/downloads/0`,
      headers: admin.headers,
    },
    'GET /api/content/courses/:slug/progress': { path: `${course}/progress`, headers: admin.headers, allow: 'GET, HEAD, PUT' },
    'PUT /api/content/courses/:slug/progress': {
      path: `${course}/progress`,
      body: { lessonId: 'process-mapping', completed: true },
      headers: admin.headers,
      allow: 'GET, HEAD, PUT',
    },
    // Last, as the samples run in order: the check that every sample works deletes this account.
    'DELETE /api/users/me': { path: '/api/users/me', headers: doomed.headers, allow: 'GET, HEAD, PATCH, DELETE' },
    // The webhook and the dashboard's resend share one path pattern (see EMAIL_POST_SEGMENT).
    [`POST /api/email/${EMAIL_POST_SEGMENT}`]: {
      path: '/api/email/events',
      body: { id: 'evt-1', type: 'delivered', messageId: '<m-1@example.com>', occurredAt: '2026-11-01T10:00:00Z' },
      signed: true,
    },
    'POST /api/payments/stripe/webhook': {
      path: '/api/payments/stripe/webhook',
      body: { id: 'evt_edge_1', object: 'event', type: 'charge.updated', created: 1_795_000_000, data: { object: { id: 'ch_1' } } },
      signed: 'stripe',
    },
    'POST /api/payments/stripe/create-session': {
      path: '/api/payments/stripe/create-session',
      body: { priceId: 'price_premium_monthly', successUrl: success, cancelUrl: '/pricing?canceled=true', userId: admin.id },
      headers: admin.headers,
    },
    'POST /api/payments/stripe/confirm': {
      path: '/api/payments/stripe/confirm',
      body: { sessionId: paid.sessionId },
      headers: payer.headers,
    },
    'GET /api/payments/stripe/subscriptions/:customerId': {
      path: `/api/payments/stripe/subscriptions/${customerId}`,
      headers: payer.headers,
    },
    'POST /api/payments/stripe/create-portal-session': {
      path: '/api/payments/stripe/create-portal-session',
      body: { customerId, returnUrl: '/account' },
      headers: payer.headers,
    },
    'GET /api/payments/stripe/subscriptions/:subscriptionId/retention-offer': {
      path: `/api/payments/stripe/subscriptions/${subscription!.id}/retention-offer`,
      headers: payer.headers,
      allow: 'GET, HEAD, POST',
    },
    'POST /api/payments/stripe/subscriptions/:subscriptionId/retention-offer': {
      path: `/api/payments/stripe/subscriptions/${subscription!.id}/retention-offer`,
      body: { code: 'EDGE-STAY' },
      headers: payer.headers,
      allow: 'GET, HEAD, POST',
    },
    'POST /api/payments/stripe/subscriptions/:subscriptionId/cancel': {
      path: `/api/payments/stripe/subscriptions/${subscription!.id}/cancel`,
      headers: payer.headers,
    },
    'POST /api/payments/stripe/subscriptions/:subscriptionId/change': {
      path: `/api/payments/stripe/subscriptions/${subscription!.id}/change`,
      // An upgrade (the payer is on Subscriber monthly), answered 200.
      body: { priceId: 'price_premium_monthly' },
      headers: payer.headers,
    },
    'GET /api/payments/subscription': { path: '/api/payments/subscription', headers: payer.headers },
    'GET /api/payments/purchases': { path: '/api/payments/purchases', headers: payer.headers },
    'GET /api/payments/mode': { path: '/api/payments/mode' },
    'GET /api/payments/trials': { path: '/api/payments/trials' },
    'GET /api/payments/offers/:code': { path: '/api/payments/offers/EDGE-JOIN' },
    'POST /api/payments/gifts': {
      path: '/api/payments/gifts',
      body: {
        accessLevel: 'premium',
        months: 3,
        recipientEmail: 'edge-other@example.com',
        message: 'Enjoy',
        successUrl: '/account',
        cancelUrl: '/gift',
      },
      headers: payer.headers,
      allow: 'GET, HEAD, POST',
    },
    'GET /api/payments/gifts/:code': { path: `/api/payments/gifts/${gift!.code}` },
    'POST /api/payments/gifts/:code/redeem': { path: `/api/payments/gifts/${gift!.code}/redeem`, headers: shopper.headers },
    'GET /api/payments/gifts': { path: '/api/payments/gifts', headers: payer.headers, allow: 'GET, HEAD, POST' },
    'POST /openai/generate': {
      path: '/openai/generate',
      body: { prompt: 'Generate a blog about: local SEO for bakeries' },
      headers: admin.headers,
    },
    ...(await creatorSamples(t, admin.headers)),
    ...(await newsletterSamples(t, admin)),
    ...(await eventSamples(t, admin)),
    ...(await supportSamples(t, admin)),
    ...(await moderationSamples(t, admin)),
    ...(await communitySamples(t, admin, member)),
    ...(await replyMailSamples(t, admin, member)),
    'GET /api/payments/test/checkout/:id': { path: `/api/payments/test/checkout/${open.sessionId}` },
    'POST /api/payments/test/checkout/:id/pay': {
      path: `/api/payments/test/checkout/${open.sessionId}/pay`,
      body: { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
    },
    'GET /api/payments/test/portal/:id': { path: `/api/payments/test/portal/${portalId}` },
    'POST /api/payments/test/portal/:id/subscriptions/:subscriptionId': {
      path: `/api/payments/test/portal/${portalId}/subscriptions/${subscription!.id}`,
      body: { action: 'resume' },
    },
  };
}

/** The creator API: create, change and delete for each content type, as an admin, on a database item. */
async function creatorSamples(t: TestApp, headers: Record<string, string>): Promise<Record<string, Sample>> {
  const inputs = INPUT_BUILDERS;
  const out: Record<string, Sample> = {};
  for (const type of CONTENT_TYPES) {
    const base = `/api/content/${CONTENT_TYPE_INFO[type].apiSegment}`;
    const item = await t.services.content.create(type, inputs[type]());
    out[`POST ${base}`] = { path: base, body: inputs[type](), headers };
    const allow = 'GET, HEAD, PATCH, DELETE';
    out[`GET ${base}/:id`] = { path: `${base}/${item.id}`, headers, allow };
    out[`PATCH ${base}/:id`] = { path: `${base}/${item.id}`, body: { title: 'A changed title' }, headers, allow };
    out[`DELETE ${base}/:id`] = { path: `${base}/${item.id}`, headers, allow };
  }
  return out;
}

/** The events API: an event whose join link is open, the admin registered (POST again answers 200, DELETE last). */
async function eventSamples(t: TestApp, admin: { id: string; headers: Record<string, string> }): Promise<Record<string, Sample>> {
  const event = await createEvent(t, 10);
  await t.services.events.register({ id: admin.id, email: 'edge-admin@example.com', role: 'admin', accessLevel: 'premium' }, event.slug);
  const { headers } = admin;
  const registration = `/api/events/${event.slug}/registration`;
  const allow = 'GET, HEAD, POST, DELETE';
  return {
    'GET /api/events': { path: '/api/events', headers },
    'GET /api/payments/grants': { path: '/api/payments/grants', headers },
    'GET /api/events/:slug/registration': { path: registration, headers, allow },
    'GET /api/events/:slug/join': { path: `/api/events/${event.slug}/join`, headers },
    'GET /api/events/:slug/recording': { path: `/api/events/${event.slug}/recording`, headers },
    'GET /api/admin/events/:slug/registrants': { path: `/api/admin/events/${event.slug}/registrants`, headers },
    'GET /api/admin/events/:slug/registrants.csv': { path: `/api/admin/events/${event.slug}/registrants.csv`, headers },
    'GET /events/:file{[a-z0-9-]+\\.ics}': { path: `/events/${event.slug}.ics` },
    'POST /api/events/:slug/registration': { path: registration, headers, allow },
    'DELETE /api/events/:slug/registration': { path: registration, headers, allow },
  };
}

/**
 * The community API, as an admin in a category anyone reads: a thread, replies to change and to
 * delete, another member's post to like, and comments under an article and a lesson.
 */
async function communitySamples(
  t: TestApp,
  admin: { id: string; headers: Record<string, string> },
  member: (email: string) => Promise<{ id: string; headers: Record<string, string> }>,
): Promise<Record<string, Sample>> {
  await t.database.db.insert(communityCategories).values({ slug: 'edge-general', name: 'Edge', anyoneReads: true });
  const post = async (headers: Record<string, string>, path: string, body: Record<string, unknown>) => {
    const res = await t.app.request(`/api/community${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return ((await res.json()) as { id: string }).id;
  };
  const { headers } = admin;
  const thread = await post(headers, '/threads', { category: 'edge-general', title: 'Edge thread', body: 'Opening words' });
  const [edited, deleted] = [
    await post(headers, `/threads/${thread}/replies`, { body: 'To edit' }),
    await post(headers, `/threads/${thread}/replies`, { body: 'To delete' }),
  ];
  const other = await member('edge-poster@example.com');
  const liked = await post(other.headers, `/threads/${thread}/replies`, { body: 'Like this' });
  const base = '/api/community';
  const article = `${base}/comments/blogs/ecommerce-launch-first-90-days`;
  const lesson = `${base}/comments/courses/ai-automation-playbook/lessons/process-mapping`;
  const both = 'GET, HEAD, POST';
  return {
    'GET /api/community/categories': { path: `${base}/categories` },
    'GET /api/community/threads': { path: `${base}/threads?category=edge-general`, headers, allow: both },
    'POST /api/community/threads': {
      path: `${base}/threads`,
      body: { category: 'edge-general', title: 'Another thread', body: 'More **words**' },
      headers,
      allow: both,
    },
    'GET /api/community/threads/:id': { path: `${base}/threads/${thread}`, headers },
    'POST /api/community/threads/:id/replies': { path: `${base}/threads/${thread}/replies`, body: { body: 'A reply' }, headers },
    'GET /api/community/posts/:id/source': { path: `${base}/posts/${edited}/source`, headers },
    'PATCH /api/community/posts/:id': { path: `${base}/posts/${edited}`, body: { body: 'Edited' }, headers, allow: 'PATCH, DELETE' },
    'DELETE /api/community/posts/:id': { path: `${base}/posts/${deleted}`, headers, allow: 'PATCH, DELETE' },
    'PUT /api/community/posts/:id/like': { path: `${base}/posts/${liked}/like`, headers, allow: 'PUT, DELETE' },
    'DELETE /api/community/posts/:id/like': { path: `${base}/posts/${liked}/like`, headers, allow: 'PUT, DELETE' },
    'GET /api/community/search': { path: `${base}/search?q=edge`, headers },
    'GET /api/community/comments/blogs/:slug': { path: article, headers, allow: both },
    'POST /api/community/comments/blogs/:slug': { path: article, body: { body: 'A comment' }, headers, allow: both },
    'GET /api/community/comments/courses/:slug/lessons/:lessonId': { path: lesson, headers, allow: both },
    'POST /api/community/comments/courses/:slug/lessons/:lessonId': { path: lesson, body: { body: 'A comment' }, headers, allow: both },
  };
}

/**
 * The community's reply mails: the admin's setting and a thread's mute, and a member's links from a
 * reply mail (the one-click unsubscribe, the mute page's form), whose tokens need no session.
 */
async function replyMailSamples(
  t: TestApp,
  admin: { id: string; headers: Record<string, string> },
  member: (email: string) => Promise<{ id: string; headers: Record<string, string> }>,
): Promise<Record<string, Sample>> {
  const [category] = await t.database.db.insert(communityCategories).values({ slug: 'edge-replies', name: 'Edge replies' }).returning();
  const [thread] = await t.database.db
    .insert(communityThreads)
    .values({ categoryId: category!.id, authorId: admin.id, title: 'Edge mail thread' })
    .returning();
  const reader = await member('edge-reader@example.com');
  const links = mailLinks(t.services.tokens, t.config.siteUrl, reader.id, thread!.id);
  const token = (url: string) => new URL(url).searchParams.get('token')!;
  const { headers } = admin;
  const settings = '/api/community/settings';
  return {
    'GET /api/community/settings': { path: settings, headers, allow: 'GET, HEAD, PUT' },
    'PUT /api/community/settings': { path: settings, body: { notifications: true }, headers, allow: 'GET, HEAD, PUT' },
    'PUT /api/community/threads/:id/mute': {
      path: `/api/community/threads/${thread!.id}/mute`,
      body: { muted: false },
      headers,
      allow: 'PUT',
    },
    'POST /api/community/notifications/unsubscribe': {
      path: '/api/community/notifications/unsubscribe',
      body: { token: token(links.oneClickUrl) },
      forms: true,
    },
    'POST /api/community/notifications/mute': {
      path: '/api/community/notifications/mute',
      body: { token: token(links.muteUrl) },
      forms: true,
    },
  };
}

/**
 * Community moderation as an admin: a report of another member's post (201, then 200 on a repeat),
 * the queue and the log, an approve of a visible post and a pin (both repeatable), a suspension, and
 * the categories (a new one, a change, and an empty one to delete).
 */
async function moderationSamples(t: TestApp, admin: { id: string; headers: Record<string, string> }): Promise<Record<string, Sample>> {
  const viewer = { id: admin.id, email: 'edge-admin@example.com', role: 'admin' as const, accessLevel: 'premium' as const };
  const categories = t.services.communityCategories;
  const category = { description: '', accessLevel: 'free' as const, anyoneReads: false, position: 0 };
  await categories.create(viewer, { ...category, slug: 'edge-moderated', name: 'Edge moderated' });
  await categories.create(viewer, { ...category, slug: 'edge-emptied', name: 'Edge emptied' });
  const email = 'edge-mod-author@example.com';
  const author = { id: await t.services.auth.createConfirmedUser(email, 'edge suite password', 'Author'), email, role: 'member' as const };
  const { id: thread } = await t.services.community.createThread(
    { ...author, accessLevel: 'free' },
    { category: 'edge-moderated', title: 'Edge thread', body: 'An opener.' },
  );
  const post = await t.services.community.reply({ ...author, accessLevel: 'free' }, thread, async () => 'A reply to report.');
  const { headers } = admin;
  const base = '/api/admin/community';
  const fields = { name: 'Edge moderated', description: 'Changed', accessLevel: 'free', anyoneReads: true, position: 3 };
  return {
    'POST /api/community/posts/:id/report': { path: `/api/community/posts/${post.id}/report`, body: { reason: 'Spam' }, headers },
    'GET /api/admin/community/queue': { path: `${base}/queue`, headers },
    'POST /api/admin/community/posts/:id': { path: `${base}/posts/${post.id}`, body: { action: 'approve' }, headers },
    'POST /api/admin/community/threads/:id': { path: `${base}/threads/${thread}`, body: { action: 'pin' }, headers },
    'POST /api/admin/community/members/:userId/suspension': {
      path: `${base}/members/${author.id}/suspension`,
      body: { suspended: true, reason: 'Edge' },
      headers,
    },
    'GET /api/admin/community/log': { path: `${base}/log`, headers },
    'GET /api/admin/community/categories': { path: `${base}/categories`, headers, allow: 'GET, HEAD, POST' },
    'POST /api/admin/community/categories': {
      path: `${base}/categories`,
      body: { slug: 'edge-new', name: 'Edge new', accessLevel: 'subscriber' },
      headers,
      allow: 'GET, HEAD, POST',
    },
    'PUT /api/admin/community/categories/:slug': { path: `${base}/categories/edge-moderated`, body: fields, headers, allow: 'PUT, DELETE' },
    'DELETE /api/admin/community/categories/:slug': { path: `${base}/categories/edge-emptied`, headers, allow: 'PUT, DELETE' },
  };
}

/** The support desk, as an admin on a member's request whose first message has an attachment. */
async function supportSamples(t: TestApp, admin: { id: string; headers: Record<string, string> }): Promise<Record<string, Sample>> {
  const id = await t.services.auth.createConfirmedUser('edge-support@example.com', 'edge suite password', 'Edge Support');
  const form = multipart([{ field: 'attachment', filename: 'edge.png', type: 'image/png', body: PNG }]);
  const { attachment } = await t.services.supportAttachments.receive(Readable.from([form.body]), form.contentType);
  const viewer = { id, email: 'edge-support@example.com', role: 'member' as const, accessLevel: 'premium' as const };
  const request = await t.services.support.open(viewer, { subject: 'Edge request', message: 'Help, please.' }, attachment);
  const [message] = (await t.services.support.get(viewer, request.id)).messages;
  const { headers } = admin;
  const base = '/api/support/requests';
  const one = `${base}/${request.id}`;
  const list = 'GET, HEAD, POST';
  const read = 'GET, HEAD, PATCH';
  const withFile = (fields: Record<string, string>) =>
    multipart([
      ...Object.entries(fields).map(([field, body]) => ({ field, body })),
      { field: 'attachment', filename: 'edge.pdf', type: 'application/pdf', body: PDF },
    ]);
  return {
    'GET /api/support/requests': { path: `${base}?status=open&limit=20`, headers, allow: list },
    'POST /api/support/requests': {
      path: base,
      body: { subject: 'Edge question', message: 'How do I…\nsecond line' },
      multipart: withFile({ subject: 'Edge question', message: 'With a file' }),
      headers,
      allow: list,
    },
    'GET /api/support/requests/:id': { path: one, headers, allow: read },
    'PATCH /api/support/requests/:id': { path: one, body: { status: 'open', assigneeId: admin.id }, headers, allow: read },
    'POST /api/support/requests/:id/messages': {
      path: `${one}/messages`,
      body: { body: 'A staff reply', status: 'waiting' },
      multipart: withFile({ body: 'A note with a file', internal: 'true' }),
      headers,
    },
    'GET /api/support/requests/:id/messages/:messageId/attachment': { path: `${one}/messages/${message!.id}/attachment`, headers },
    'GET /api/support/staff': { path: '/api/support/staff', headers },
    'POST /api/support/attachments': { path: '/api/support/attachments', body: { contentType: 'image/png', size: PNG.length }, headers },
  };
}

/** The staff newsletter API and the archive, as an admin: a draft per write that uses one up (delete, send, cancel). */
async function newsletterSamples(t: TestApp, admin: { id: string; headers: Record<string, string> }): Promise<Record<string, Sample>> {
  const viewer = { id: admin.id, email: 'edge-admin@example.com', role: 'admin' as const, accessLevel: 'premium' as const };
  const input = {
    subject: 'Edge <b>issue</b>',
    previewText: 'A preview line',
    body: 'Public part.\n\n<!-- preview -->\n\nThe rest.',
    accessLevel: 'subscriber' as const,
    audience: ['premium' as const],
  };
  const issues = t.services.newsletterIssues;
  const [kept, deleted, sent, scheduled, cancelled, archived] = await Promise.all(
    Array.from({ length: 6 }, async () => (await issues.create(viewer, input)).id),
  );
  const tomorrow = { sendAt: new Date(Date.now() + 86_400_000).toISOString().slice(0, 16), timeZone: 'America/Chicago' };
  await issues.schedule(cancelled!, tomorrow);
  const { slug } = await issues.send(archived!);
  // The preview frame's signed link, which a frame loads without the editor's token.
  const { url: previewFrame } = await issues.preview(kept!, 'premium');
  const { headers } = admin;
  const base = '/api/admin/newsletter/issues';
  const list = 'GET, HEAD, POST';
  const one = 'GET, HEAD, PUT, DELETE';
  return {
    'POST /api/admin/newsletter/issues': { path: base, body: input, headers, allow: list },
    'GET /api/admin/newsletter/issues': { path: base, headers, allow: list },
    'GET /api/admin/newsletter/audiences': { path: '/api/admin/newsletter/audiences?selected=newsletter,premium', headers },
    'GET /api/admin/newsletter/issues/:id': { path: `${base}/${kept}`, headers, allow: one },
    'PUT /api/admin/newsletter/issues/:id': { path: `${base}/${kept}`, body: input, headers, allow: one },
    'DELETE /api/admin/newsletter/issues/:id': { path: `${base}/${deleted}`, headers, allow: one },
    'GET /api/admin/newsletter/issues/:id/preview': { path: `${base}/${kept}/preview?level=visitor`, headers },
    'POST /api/admin/newsletter/issues/:id/test': { path: `${base}/${kept}/test`, body: { level: 'free' }, headers },
    'POST /api/admin/newsletter/issues/:id/send': { path: `${base}/${sent}/send`, headers },
    'POST /api/admin/newsletter/issues/:id/schedule': { path: `${base}/${scheduled}/schedule`, body: tomorrow, headers },
    'POST /api/admin/newsletter/issues/:id/cancel': { path: `${base}/${cancelled}/cancel`, headers },
    'GET /api/admin/newsletter/articles/:slug': { path: '/api/admin/newsletter/articles/ecommerce-launch-first-90-days', headers },
    'GET /api/newsletter/issues': { path: '/api/newsletter/issues' },
    'GET /api/newsletter/issues/:slug/body': { path: `/api/newsletter/issues/${slug}/body`, headers },
    'GET /api/newsletter/previews/:token': { path: previewFrame },
  };
}

/** The admin API (email dashboard, users, overview), as an admin; a failed mail to resend and a member to change. */
async function adminSamples(t: TestApp, headers: Record<string, string>): Promise<Record<string, Sample>> {
  const [failed] = await t.database.db
    .insert(emails)
    .values({
      subject: 'Hi',
      bodyHtml: '<p>Hi</p>',
      bodyText: 'Hi',
      to: 'edge-mail@example.com',
      from: 'hello@example.com',
      template: 'welcome',
      status: 'failed',
    })
    .returning();
  const managed = await t.services.auth.createConfirmedUser('edge-managed@example.com', 'edge suite password', 'Managed');
  const comp = await t.services.billing.access.comps.add(managed, managed, { accessLevel: 'premium', note: 'edge' });
  const archived = await t.services.billing.offers.create(managed, {
    code: 'EDGE-OLD',
    kind: 'signup',
    percentOff: 5,
    duration: 'forever',
  });
  const label =
    (await t.services.members.members.relabel({ filter: {}, userIds: [managed], add: ['Edge gone'], remove: [] }),
    (await t.services.members.members.labels()).find((l) => l.name === 'Edge gone')!.id);
  const segment = await t.services.members.members.createSegment('Edge gone', {}, managed);
  const key = await t.services.members.apiKeys.create(managed, 'Edge gone', ['read:members']);
  return {
    'POST /api/admin/payments/members/:id/comps': {
      path: `/api/admin/payments/members/${managed}/comps`,
      body: { accessLevel: 'subscriber', until: new Date(Date.now() + 30 * 86_400_000).toISOString(), note: 'Client seat' },
      headers,
      allow: 'POST',
    },
    'DELETE /api/admin/payments/members/:id/comps/:compId': {
      path: `/api/admin/payments/members/${managed}/comps/${comp.id}`,
      headers,
      allow: 'DELETE',
    },
    'GET /api/admin/payments/members/:id/grants': { path: `/api/admin/payments/members/${managed}/grants`, headers },
    'GET /api/email/queue': { path: '/api/email/queue?limit=10', headers },
    'GET /api/email/recent': { path: '/api/email/recent?limit=10', headers },
    [`POST /api/email/${EMAIL_POST_SEGMENT}/resend`]: { path: `/api/email/${failed!.id}/resend`, headers },
    'GET /api/admin/overview': { path: '/api/admin/overview', headers },
    'GET /api/admin/analytics/revenue': { path: '/api/admin/analytics/revenue?from=2030-01&to=2030-12', headers },
    'GET /api/admin/analytics/revenue.csv': { path: '/api/admin/analytics/revenue.csv?from=2030-01&to=2030-03', headers },
    'GET /api/admin/payments/offers': { path: '/api/admin/payments/offers', headers, allow: 'GET, HEAD, POST' },
    'POST /api/admin/payments/offers': {
      path: '/api/admin/payments/offers',
      body: {
        code: 'EDGE-LAUNCH',
        kind: 'signup',
        amountOff: 200,
        duration: 'repeating',
        durationInMonths: 2,
        priceIds: ['price_premium_yearly'],
      },
      headers,
      allow: 'GET, HEAD, POST',
    },
    'PUT /api/admin/payments/offers/trials/:priceId': {
      path: '/api/admin/payments/offers/trials/price_subscriber_yearly',
      body: { days: 0 },
      headers,
      allow: 'PUT',
    },
    'DELETE /api/admin/payments/offers/:id': { path: `/api/admin/payments/offers/${archived.id}`, headers, allow: 'DELETE' },
    'GET /api/admin/users': { path: '/api/admin/users?q=edge&page=1&limit=20', headers },
    'PATCH /api/admin/users/:id': {
      path: `/api/admin/users/${managed}`,
      body: { accessLevel: 'subscriber', role: 'member' },
      headers,
      allow: 'PATCH',
    },
    'GET /api/admin/audit': { path: `/api/admin/audit?userId=${managed}&limit=20`, headers },
    'GET /api/admin/content': { path: '/api/admin/content', headers },
    'GET /api/admin/members/export.csv': { path: '/api/admin/members/export.csv?level=premium&label=Edge', headers },
    'POST /api/admin/members/import': {
      path: '/api/admin/members/import?dryRun=1',
      multipart: { body: Buffer.from('email,name,labels\r\nedge-import@example.com,Edge Import,Edge\r\n'), contentType: 'text/csv' },
      headers,
      allow: 'POST',
    },
    'GET /api/admin/members/labels': { path: '/api/admin/members/labels', headers, allow: 'GET, HEAD, POST' },
    'POST /api/admin/members/labels': {
      path: '/api/admin/members/labels',
      body: { userIds: [managed], add: ['Edge'] },
      headers,
      allow: 'GET, HEAD, POST',
    },
    'DELETE /api/admin/members/labels/:id': { path: `/api/admin/members/labels/${label}`, headers, allow: 'DELETE' },
    'GET /api/admin/members/segments': { path: '/api/admin/members/segments', headers, allow: 'GET, HEAD, POST' },
    'POST /api/admin/members/segments': {
      path: '/api/admin/members/segments',
      body: { name: 'Edge segment', filter: { level: ['premium'] } },
      headers,
      allow: 'GET, HEAD, POST',
    },
    'DELETE /api/admin/members/segments/:id': { path: `/api/admin/members/segments/${segment.id}`, headers, allow: 'DELETE' },
    'GET /api/admin/members/keys': { path: '/api/admin/members/keys', headers, allow: 'GET, HEAD, POST' },
    'POST /api/admin/members/keys': {
      path: '/api/admin/members/keys',
      body: { name: 'Edge key', scopes: ['read:members'] },
      headers,
      allow: 'GET, HEAD, POST',
    },
    'DELETE /api/admin/members/keys/:id': { path: `/api/admin/members/keys/${key.id}`, headers, allow: 'DELETE' },
  };
}

/** Outbound webhooks' admin routes, as an admin: endpoints to change, rotate, test and delete, and a delivery to replay. */
async function webhookSamples(t: TestApp, admin: { id: string; headers: Record<string, string> }): Promise<Record<string, Sample>> {
  const { headers } = admin;
  const base = '/api/admin/outbound';
  const make = () => t.services.webhooks.create(admin.id, { url: 'http://127.0.0.1:9/edge', events: ['member.created'] });
  const [kept, doomed] = [await make(), await make()];
  const delivery = await t.services.webhooks.test(kept.id, admin.id);
  const one = 'PATCH, DELETE';
  return {
    [`GET ${base}`]: { path: base, headers, allow: 'GET, HEAD, POST' },
    [`POST ${base}`]: {
      path: base,
      body: { url: 'http://127.0.0.1:9/edge-new', events: ['member.created', 'grant.started'] },
      headers,
      allow: 'GET, HEAD, POST',
    },
    [`PATCH ${base}/:id`]: { path: `${base}/${kept.id}`, body: { events: ['member.updated'], enabled: true }, headers, allow: one },
    [`POST ${base}/:id/rotate`]: { path: `${base}/${kept.id}/rotate`, headers },
    [`POST ${base}/:id/test`]: { path: `${base}/${kept.id}/test`, headers },
    [`GET ${base}/:id/deliveries`]: { path: `${base}/${kept.id}/deliveries?limit=20`, headers },
    [`POST ${base}/:id/deliveries/:deliveryId/replay`]: { path: `${base}/${kept.id}/deliveries/${delivery.id}/replay`, headers },
    [`DELETE ${base}/:id`]: { path: `${base}/${doomed.id}`, headers, allow: one },
  };
}

/** The path of every string in a JSON value (objects and arrays at any depth). */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}

/** A deep copy of `body` with the string at `path` replaced. */
function withValue(body: unknown, path: (string | number)[], value: string): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

/** The only API answers a shared cache (a CDN) may store: the same for every caller. */
const SHARED_CACHE_ROUTES = new Set([
  'GET /api/public/:segment',
  'GET /api/public/:segment/:slug',
  'GET /uploads/:key',
  // The public search index's files (the entry within the staleness bound, hashed files a year).
  'GET /pagefind/*',
  'GET /api/payments/mode',
  // The community's categories: the same for everyone (a visitor's first page of a public category too, not sampled here).
  'GET /api/community/categories',
]);

/** Hostile text values: NUL (Postgres refuses it), other C0 controls, DEL, a C1 control. */
const CONTROL_VALUES = ['a\u0000b', '\u0000', 'x\u0007y', 'esc\u001b[31m', 'del\u007f', 'c1\u0085'];

describe.each(DATABASE_KINDS)('API bad-input suite on %s', (kind) => {
  let t: TestApp;
  let routes: Record<string, Sample>;
  let ip = 0;
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    // Uploads go to a bucket, as in production, so the direct-upload routes have samples that work.
    s3 = await startS3();
    t = await createTestApp(kind, undefined, {
      EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DATA_DIR: await tempDir('edge'),
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    routes = await samples(t);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });
  beforeEach(async () => {
    await t.database.db.delete(rateLimits);
  });

  function send(method: string, path: string, init: { body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {}) {
    ip += 1;
    return t.app.request(path, {
      method,
      headers: { 'x-forwarded-for': `198.51.100.${ip % 250}`, ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
  }

  const methodOf = (key: string) => key.split(' ')[0]!;

  function sendJson(key: string, route: Sample, body: unknown, headers: Record<string, string> = {}) {
    const text = JSON.stringify(body);
    const signature = signatureFor(route, text);
    return send(methodOf(key), route.path, {
      body: text,
      headers: { 'content-type': 'application/json', ...route.headers, ...signature, ...headers },
    });
  }

  /** A 4xx in the one error shape with the request id; nothing written anywhere. */
  async function expectRefused(res: Response, before: Record<string, number>, label: string) {
    expect(res.status, label).toBeGreaterThanOrEqual(400);
    expect(res.status, label).toBeLessThan(500);
    const body = (await res.json()) as Partial<ErrorAnswer>;
    expect(body.error?.code, label).toEqual(expect.any(String));
    expect(body.error?.message, label).toEqual(expect.any(String));
    expect(body.error?.requestId, label).toBe(res.headers.get('x-request-id'));
    expect(await rowCounts(t.database.db), label).toEqual(before);
  }

  /** Routes that take a body. */
  const writeRoutes = () => Object.entries(routes).filter(([key, route]) => !key.startsWith('GET ') && route.body);

  it('has a sample for every route the app serves', () => {
    // The auth API answers in Supabase Auth's own error shape; its bad-input suite is auth.test.ts.
    const served = t.app
      .endpoints()
      .filter((r) => !r.path.startsWith('/auth/v1/'))
      .map((r) => `${r.method} ${r.path}`);
    expect([...new Set(served)].sort()).toEqual(Object.keys(routes).sort());
  });

  it('keeps the routes unambiguous, so Hono stays on its RegExpRouter (the trie fallback costs every answer)', async () => {
    await t.app.request('/healthz');
    expect(getRouterName(t.app)).toBe('SmartRouter + RegExpRouter');
  });

  it('refuses control characters in every text field of every write with 4xx', async () => {
    const before = await rowCounts(t.database.db);
    for (const [key, route] of writeRoutes()) {
      for (const field of Object.keys(route.body!).filter((f) => typeof route.body![f] === 'string')) {
        for (const value of CONTROL_VALUES) {
          const res = await sendJson(key, route, { ...route.body, [field]: value });
          await expectRefused(res, before, `${key} ${field}=${JSON.stringify(value)}`);
        }
      }
    }
  });

  it('refuses a lone UTF-16 surrogate in any string of any write, at any depth, with 422', async () => {
    const before = await rowCounts(t.database.db);
    for (const [key, route] of writeRoutes()) {
      for (const path of stringPaths(route.body)) {
        for (const value of ['a\ud800b', '\udfff', 'end\ud83d']) {
          const res = await sendJson(key, route, withValue(route.body, path, value));
          // 422 everywhere; a provider's signed webhook answers an event it cannot read with 400.
          expect(res.status, `${key} ${path.join('.')}`).toBe(route.signed === 'stripe' ? 400 : 422);
          await expectRefused(res, before, `${key} ${path.join('.')}=${JSON.stringify(value)}`);
        }
      }
      const res = await sendJson(key, route, { ...route.body, 'k\udc00': 'x' });
      await expectRefused(res, before, `${key} with a lone surrogate in a key`);
    }
  });

  it('refuses bodies whose declared type does not match their bytes with 4xx', async () => {
    const before = await rowCounts(t.database.db);
    const bodies: [string, Record<string, string>, string][] = [
      ['multipart without a boundary', { 'content-type': 'multipart/form-data' }, 'token=abc'],
      ['multipart with a broken boundary', { 'content-type': 'multipart/form-data; boundary=zzz' }, '--yyy\r\nnot a part\r\n'],
      ['multipart with an empty boundary', { 'content-type': 'multipart/form-data; boundary=' }, '--\r\n'],
      ['form-encoded where JSON is expected', { 'content-type': 'application/x-www-form-urlencoded' }, 'email=a%40example.com&name=x'],
      ['form-encoded with broken escapes', { 'content-type': 'application/x-www-form-urlencoded' }, 'token=%E0%A4%A&x=%zz'],
      ['form bytes declared as JSON', { 'content-type': 'application/json' }, 'email=a%40example.com'],
      ['truncated JSON', { 'content-type': 'application/json' }, '{"email": "a@example.com"'],
      ['JSON that is not an object', { 'content-type': 'application/json' }, '[1, 2, 3]'],
      ['JSON null', { 'content-type': 'application/json' }, 'null'],
      ['text/plain', { 'content-type': 'text/plain' }, '{"email":"a@example.com"}'],
      ['no content type', {}, '{"email":"a@example.com"}'],
      ['invalid UTF-8 as JSON', { 'content-type': 'application/json' }, '{"email":"\udc80@example.com"}'],
      ['JSON nested 20,000 levels deep', { 'content-type': 'application/json' }, `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
    ];
    for (const [key, route] of writeRoutes()) {
      for (const [label, headers, body] of bodies) {
        const signature = signatureFor(route, body);
        const res = await send(methodOf(key), route.path, { body, headers: { ...route.headers, ...headers, ...signature } });
        await expectRefused(res, before, `${key}: ${label}`);
      }
    }
  });

  it('refuses writes that a browser marks as cross-site with 403, before reading them', async () => {
    const before = await rowCounts(t.database.db);
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://localhost.evil.example', 'sec-fetch-site': 'cross-site' },
    ];
    for (const [key, route] of writeRoutes()) {
      for (const headers of crossSite) {
        const res = await sendJson(key, route, route.body, headers);
        expect(res.status, `${key} ${JSON.stringify(headers)}`).toBe(403);
        await expectRefused(res, before, key);
      }
    }
  });

  it('refuses multipart writes (uploads) with mismatched bodies or from another site with 4xx', async () => {
    const before = await rowCounts(t.database.db);
    const bodies: [string, Record<string, string>, string][] = [
      ['multipart without a boundary', { 'content-type': 'multipart/form-data' }, 'token=abc'],
      ['multipart with a broken boundary', { 'content-type': 'multipart/form-data; boundary=zzz' }, '--yyy\r\nnot a part\r\n'],
      ['multipart with an empty boundary', { 'content-type': 'multipart/form-data; boundary=' }, '--\r\n'],
      ['JSON', { 'content-type': 'application/json' }, '{"file":"x"}'],
      ['form-encoded', { 'content-type': 'application/x-www-form-urlencoded' }, 'file=x'],
      ['no content type', {}, 'file=x'],
    ];
    for (const [key, route] of Object.entries(routes).filter(([, r]) => r.multipart)) {
      for (const [label, headers, body] of bodies) {
        const res = await send(methodOf(key), route.path, { body, headers: { ...route.headers, ...headers } });
        await expectRefused(res, before, `${key}: ${label}`);
      }
      const res = await send(methodOf(key), route.path, {
        body: new Uint8Array(route.multipart!.body),
        headers: { ...route.headers, 'content-type': route.multipart!.contentType, origin: 'https://evil.example' },
      });
      expect(res.status, key).toBe(403);
      await expectRefused(res, before, key);
    }
  });

  it('answers other methods with 405 and the Allow list', async () => {
    const before = await rowCounts(t.database.db);
    for (const [key, route] of Object.entries(routes)) {
      const allowed = route.allow ?? (key.startsWith('GET ') ? 'GET, HEAD' : 'POST');
      const tried = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'].filter((m) => !allowed.split(', ').includes(m));
      for (const method of tried) {
        const res = await send(method, route.path, { headers: route.headers ?? {} });
        expect(res.status, `${method} ${key}`).toBe(405);
        expect(res.headers.get('allow'), `${method} ${key}`).toBe(allowed);
        await expectRefused(res, before, `${method} ${key}`);
      }
    }
  });

  it('refuses hostile path and query values with 4xx', async () => {
    const before = await rowCounts(t.database.db);
    const paths = [
      '/api/public/blogs/%00',
      '/api/public/blogs/a%0d%0aSet-Cookie:%20x=1',
      '/api/public/%0a',
      '/api/public/blogs/%E0%A4%A',
      '/api/public/blogs/..%2F..%2Fpackage.json',
      '/api/public/tools/%5c%5cevil.example',
      `/api/public/blogs/${'a'.repeat(500)}`,
      '/api/files/download?token=%00',
      '/api/files/download?token=a%0d%0ab',
      '/api/files/download?token=',
      '/api/files/download?token=../../package.json',
      '/api/files/download',
      '/api/nothing-here',
      '/api/email/queue?limit=%00',
      '/api/email/%00/resend',
      '/api/admin/users?q=%0d%0a',
      '/api/admin/audit?userId=../x',
      '/api/%00',
      '/uploads/..%2F..%2Fpackage.json',
      '/uploads/%00',
      '/uploads/.partial-x',
      '/pagefind/..%2F..%2Fpackage.json',
      '/pagefind/%00',
      '/pagefind/fragment/%2e%2e%2f%2e%2e%2fpackage.json',
      `/pagefind/fragment/en_${'f'.repeat(3000)}.pf_fragment`,
      '/api/admin/newsletter/issues/%00',
      '/api/admin/newsletter/issues/00000000-0000-4000-8000-000000000000/preview?level=%00',
      '/api/admin/newsletter/audiences?selected=%00',
      `/api/admin/newsletter/audiences?selected=${'premium,'.repeat(500)}`,
      `/api/admin/newsletter/articles/${'a'.repeat(500)}`,
      '/api/newsletter/issues/..%2F..%2Fpackage.json/body',
      '/api/newsletter/issues/%0d%0a/body',
      '/api/newsletter/previews/%00',
      '/api/newsletter/previews/..%2F..%2Fpackage.json',
      `/api/newsletter/previews/${'x'.repeat(3000)}`,
      `/api/events/${'a'.repeat(500)}/join`,
      '/api/events/%00/registration',
      '/api/events/..%2F..%2Fpackage.json/registration',
      '/events/%00.ics',
      `/events/${'a'.repeat(500)}.ics`,
      '/api/admin/events/%0d%0a/registrants.csv',
      '/api/support/requests/%00',
      '/api/support/requests?status=%00',
      '/api/support/requests?cursor=..%2F..%2Fx',
      '/api/support/requests?limit=100000',
      `/api/support/requests/${'a'.repeat(500)}/messages/%0d%0a/attachment`,
      '/api/support/requests/00000000-0000-4000-8000-000000000000/messages/..%2F..%2Fpackage.json/attachment',
      '/api/admin/community/log?cursor=%00',
      '/api/admin/community/log?cursor=../x',
      '/api/admin/community/log?cursor=00000000-0000-4000-8000-000000000000',
      '/api/admin/community/posts/%00',
      '/api/admin/community/categories/%0d%0a',
      '/api/community/threads/%00',
      '/api/community/threads/..%2F..%2Fpackage.json',
      '/api/community/threads?category=%00',
      `/api/community/threads?category=${'a'.repeat(500)}`,
      '/api/community/threads?category=edge-general&cursor=%00',
      '/api/community/threads?category=edge-general&limit=-1',
      '/api/community/search?q=%00',
      '/api/community/search?q=',
      '/api/search?q=%00',
      '/api/search?q=',
      `/api/search?q=${'a'.repeat(201)}`,
      '/api/search?q=x&type=%00',
      '/api/search?q=x&limit=%00',
      `/api/community/comments/blogs/${'a'.repeat(500)}`,
      '/api/community/posts/%0d%0a/source',
      // Well-formed cursors whose time the database cannot hold (out of bigint or timestamp range).
      ...['9999999999999999999', '-1000000000000000000', '99999999999999999'].flatMap((t) => {
        const cursor = Buffer.from(JSON.stringify({ p: false, t, i: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
        return [`/api/community/threads?category=edge-general&cursor=${cursor}`, `/api/community/search?q=x&cursor=${cursor}`];
      }),
    ];
    for (const path of paths) await expectRefused(await send('GET', path), before, path);
    // A member's support list with cursors that decode but name no uuid or an impossible time.
    const member = routes['GET /api/support/requests']!.headers ?? {};
    for (const raw of [
      `0|2024-01-01T00:00:00Z|${'a'.repeat(36)}`,
      `0|2024-01-01T00:00:00Z|${'-'.repeat(36)}`,
      '0|+010000-01-01T00:00:00Z|00000000-0000-4000-8000-000000000000',
    ]) {
      const path = `/api/support/requests?cursor=${Buffer.from(raw).toString('base64url')}`;
      await expectRefused(await send('GET', path, { headers: member }), before, path);
    }
    for (const token of ['%00', 'a%0d%0ab', '..%2F..', 'x'.repeat(3000)]) {
      for (const path of ['/api/newsletter/unsubscribe', '/api/community/notifications/unsubscribe']) {
        const res = await send('POST', `${path}?token=${token}`, {
          body: '{}',
          headers: { 'content-type': 'application/json' },
        });
        await expectRefused(res, before, `${path}?token=${token}`);
      }
    }
  });

  it('answers every sample itself without error (so the refusals above are about the hostile part), and lets shared caches keep only public answers', async () => {
    for (const [key, route] of Object.entries(routes)) {
      const res = route.body
        ? await sendJson(key, route, route.body)
        : route.multipart
          ? await send(methodOf(key), route.path, {
              body: new Uint8Array(route.multipart.body),
              headers: { ...route.headers, 'content-type': route.multipart.contentType },
            })
          : await send(methodOf(key), route.path, { headers: route.headers ?? {} });
      expect(res.status, key).toBeLessThan(400);
      // A CDN in front must never store a member's answer: only answers that are the same for
      // everyone say public; everything else is private or no-store.
      const cacheControl = res.headers.get('cache-control') ?? '';
      if (SHARED_CACHE_ROUTES.has(key)) expect(cacheControl, key).toMatch(/^public, /);
      else expect(cacheControl, key).toMatch(/\bno-store\b/);
      if (route.headers?.authorization && /\bprivate\b/.test(cacheControl))
        expect(res.headers.get('vary'), key).toMatch(/\bAuthorization\b/);
    }
  });
  // After the samples' own run: a write that accepts an extra key may act on them.
  it('never answers 5xx to built-in property names as keys or values', async () => {
    const names = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];
    for (const [key, route] of writeRoutes()) {
      for (const path of stringPaths(route.body)) {
        for (const name of names) {
          const res = await sendJson(key, route, withValue(route.body, path, name));
          expect(res.status, `${key} ${path.join('.')}=${name}`).toBeLessThan(500);
        }
      }
      for (const name of names) {
        const res = await send(methodOf(key), route.path, {
          body: `{${JSON.stringify(name)}: {"x": 1}, ${JSON.stringify(route.body).slice(1)}`,
          headers: { 'content-type': 'application/json', ...route.headers },
        });
        expect(res.status, `${key} with a "${name}" key`).toBeLessThan(500);
      }
    }
  });
});
