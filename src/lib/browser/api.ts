/**
 * The browser's one API module: every island and browser module calls the API through it. It holds
 * the typed clients of the routes the browser calls (hono/client over the route chains' exported
 * types, imported as types only: nothing server-side is bundled) and the calls the islands share,
 * and re-exports the transport (api-fetch.ts: the member's bearer token, JSON, the one result shape
 * for failures; public-fetch.ts for public routes) and the stored session (session.ts). Answer types are never written by hand: they
 * come from the routes (InferResponseType), so a changed answer fails to compile instead of failing
 * in the browser.
 *
 * Each call answers a typed result: the data, or why not (signed out, not entitled, unknown item, or a
 * failure worth a retry). The server is the authority: a 401 or 403 here is a gate, whatever the
 * browser thought of the profile. Browser only: imported by islands and page scripts.
 */
import { hc, type ClientRequestOptions, type InferRequestType, type InferResponseType } from 'hono/client';
import type { AdminRoutes } from '../../../functions/admin/routes.ts';
import type { AiRoutes } from '../../../functions/ai/routes.ts';
import type { AnalyticsRoutes } from '../../../functions/analytics/routes.ts';
import type { ContentWriteRoutes } from '../../../functions/content/create/routes.ts';
import type { ModerationRoutes, ReportRoutes } from '../../../functions/community/moderation/routes.ts';
import type { CommunityNotificationRoutes } from '../../../functions/community/notifications/routes.ts';
import type { CommunityRoutes } from '../../../functions/community/routes.ts';
import type { PublicContentRoutes } from '../../../functions/content/routes.ts';
import type { EmailAdminRoutes } from '../../../functions/email/admin-routes.ts';
import type { EventAdminRoutes, EventRoutes, MyEventRoutes } from '../../../functions/events/routes.ts';
import type { GatedContentRoutes } from '../../../functions/content/gated/routes.ts';
import type { ApiKeyRoutes } from '../../../functions/members/keys/routes.ts';
import type { MemberRoutes } from '../../../functions/members/routes.ts';
import type { NewsletterArchiveRoutes } from '../../../functions/newsletter/archive/routes.ts';
import type { NewsletterAdminRoutes } from '../../../functions/newsletter/issues/routes.ts';
import type { TestBillingRoutes } from '../../../functions/payments/embedded/routes.ts';
import type { CompRoutes, MyGrantRoutes } from '../../../functions/payments/grants/routes.ts';
import type { GiftRoutes, MyGiftRoutes } from '../../../functions/payments/gifts/routes.ts';
import type { OfferAdminRoutes, PublicOfferRoutes } from '../../../functions/payments/offers/routes.ts';
import type { PaymentRoutes } from '../../../functions/payments/routes.ts';
import type { ProgressRoutes } from '../../../functions/content/progress/routes.ts';
import type { SearchRoutes } from '../../../functions/search/routes.ts';
import type { SupportRoutes } from '../../../functions/support/routes.ts';
import type { UploadRoutes } from '../../../functions/uploads/routes.ts';
import type { UserRoutes } from '../../../functions/users/routes.ts';
import type { WebhookRoutes } from '../../../functions/outbound/routes.ts';
import { call, memberFetch, type ApiResult } from './api-fetch.ts';
import { publicFetch } from './public-fetch.ts';

export { onSessionChange, storedSession } from './session.ts';
export { bearer, call, failure, GENERIC_ERROR, type ApiFailure, type ApiResult } from './api-fetch.ts';

/** The data a typed client method answers with. */
export type ApiData<M extends (...args: never[]) => Promise<unknown>> = InferResponseType<M>;
/** The JSON body a typed client method sends: its route's schema's input (`z.input`), never written by hand. */
export type ApiInput<M extends (...args: never[]) => Promise<unknown>> = InferRequestType<M> extends { json?: infer J } ? J : never;

const member: ClientRequestOptions = { fetch: memberFetch };
const visitor: ClientRequestOptions = { fetch: publicFetch };

/** The typed clients, by the prefix each route group is mounted under (functions/api.ts). */
export const api = {
  users: /* @__PURE__ */ hc<UserRoutes>('/api/users', member),
  gated: /* @__PURE__ */ hc<GatedContentRoutes>('/api/content', member),
  progress: /* @__PURE__ */ hc<ProgressRoutes>('/api/content', member),
  /** The creator API: every content type's routes at `/api/content/{segment}` (functions/content/create/routes.ts). */
  create: /* @__PURE__ */ hc<ContentWriteRoutes>('/api/content', member),
  /** Staff uploads (functions/uploads/routes.ts), whose paths are whole: `api.uploads.api.upload…`. */
  uploads: /* @__PURE__ */ hc<UploadRoutes>('/', member),
  payments: /* @__PURE__ */ hc<PaymentRoutes>('/api/payments', member),
  admin: /* @__PURE__ */ hc<AdminRoutes>('/api/admin', member),
  /** The Users tab's labels, segments and members file (functions/members/routes.ts). */
  members: /* @__PURE__ */ hc<MemberRoutes>('/api/admin/members', member),
  /** The API keys tab: keys for integrations, shown once (functions/members/keys/routes.ts). */
  apiKeys: /* @__PURE__ */ hc<ApiKeyRoutes>('/api/admin/members/keys', member),
  emails: /* @__PURE__ */ hc<EmailAdminRoutes>('/api/email', member),
  ai: /* @__PURE__ */ hc<AiRoutes>('/openai', member),
  newsletter: /* @__PURE__ */ hc<NewsletterArchiveRoutes>('/api/newsletter', member),
  newsletterAdmin: /* @__PURE__ */ hc<NewsletterAdminRoutes>('/api/admin/newsletter', member),
  events: /* @__PURE__ */ hc<EventRoutes>('/api/events', member),
  eventsAdmin: /* @__PURE__ */ hc<EventAdminRoutes>('/api/admin/events', member),
  myEvents: /* @__PURE__ */ hc<MyEventRoutes>('/api/events', member),
  /** What the member's access rests on: their grants (functions/payments/grants/routes.ts). */
  myGrants: /* @__PURE__ */ hc<MyGrantRoutes>('/api/payments/grants', member),
  /** Staff's comps and a member's grants on the admin card. */
  comps: /* @__PURE__ */ hc<CompRoutes>('/api/admin/payments/members', member),
  /** Gifts: buying one, redeeming one (functions/payments/gifts/routes.ts). */
  gifts: /* @__PURE__ */ hc<GiftRoutes>('/api/payments/gifts', member),
  /** The gifts the member bought. */
  myGifts: /* @__PURE__ */ hc<MyGiftRoutes>('/api/payments/gifts', member),
  /** The overview's revenue analytics and its CSV (functions/analytics/routes.ts). */
  analytics: /* @__PURE__ */ hc<AnalyticsRoutes>('/api/admin/analytics', member),
  /** The Offers tab: offers, their redemptions and revenue, plans' trials. */
  offers: /* @__PURE__ */ hc<OfferAdminRoutes>('/api/admin/payments/offers', member),
  /** The Webhooks tab: endpoints, their delivery log, replay (functions/outbound/routes.ts). */
  webhooks: /* @__PURE__ */ hc<WebhookRoutes>('/api/admin/outbound', member),
  /** The support desk: the member's requests, and staff's queue (functions/support/routes.ts). */
  support: /* @__PURE__ */ hc<SupportRoutes>('/api/support', member),
  /** A member's report of a community post (moderation's route beside the community API). */
  communityReports: /* @__PURE__ */ hc<ReportRoutes>('/api/community', member),
  /** The Moderation tab's staff API. */
  communityAdmin: /* @__PURE__ */ hc<ModerationRoutes>('/api/admin/community', member),
  /** The community: categories, threads, posts, likes, search, comments (functions/community/routes.ts). */
  community: /* @__PURE__ */ hc<CommunityRoutes>('/api/community', member),
  /** Community reply mails: the member's setting and a thread's mute (functions/community/notifications/routes.ts). */
  communityNotifications: /* @__PURE__ */ hc<CommunityNotificationRoutes>('/api/community', member),
  /** Site search's gated text, cut at the caller's level; staff's drafts (functions/search/routes.ts). */
  search: /* @__PURE__ */ hc<SearchRoutes>('/api/search', member),
};

/**
 * Clients of the public routes (no token): content lists, the payment mode, the test provider's
 * pages. The site's forms have their own typed clients (form-api.ts), kept out of every page's shell.
 */
export const publicApi = {
  content: /* @__PURE__ */ hc<PublicContentRoutes>('/api/public', visitor),
  /** What a gift is, by its code (its redeem page). */
  gifts: /* @__PURE__ */ hc<GiftRoutes>('/api/payments/gifts', visitor),
  /** A sign-up offer's terms and prices (GET /api/payments/offers/{code}). */
  offers: /* @__PURE__ */ hc<PublicOfferRoutes>('/api/payments/offers', visitor),
  payments: /* @__PURE__ */ hc<PaymentRoutes>('/api/payments', visitor),
  testBilling: /* @__PURE__ */ hc<TestBillingRoutes>('/api/payments/test', visitor),
  /** An event's seats left, for visitors (members ask `api.events` with their token). */
  events: /* @__PURE__ */ hc<EventRoutes>('/api/events', visitor),
  /** The community as visitors read it (categories anyone reads); members ask `api.community` with their token. */
  community: /* @__PURE__ */ hc<CommunityRoutes>('/api/community', visitor),
};

const seg = encodeURIComponent;
const course = (slug: string, lessonId: string) => ({ slug: seg(slug), lessonId: seg(lessonId) });

export type LessonContent = ApiData<(typeof api.gated.courses)[':slug']['lessons'][':lessonId']['$get']>;
export type LessonMedia = LessonContent['media'][number];
export type SignedLink = ApiData<(typeof api.gated.tools)[':slug']['download']['$get']>;
export type CourseProgress = ApiData<(typeof api.progress.courses)[':slug']['progress']['$get']>;
export type MyCourseProgress = ApiData<typeof api.users.me.progress.$get>['courses'][number];

/** Who the server takes the caller to be: the level and role the gates use (null when it does not know them). */
export function fetchViewer(signal?: AbortSignal) {
  return call((o) => api.users.me.$get({}, o), { signal });
}

/** The whole article (preview included) as sanitised HTML. */
export function fetchArticleBody(slug: string, signal?: AbortSignal) {
  return call((o) => api.gated.blogs[':slug'].body.$get({ param: { slug: seg(slug) } }, o), { signal });
}

/** A newsletter issue's whole body (the public part included) as sanitised HTML. */
export function fetchIssueBody(slug: string, signal?: AbortSignal) {
  return call((o) => api.newsletter.issues[':slug'].body.$get({ param: { slug: seg(slug) } }, o), { signal });
}

/** One lesson: content HTML, media and files (signed links that expire). */
export function fetchLesson(courseSlug: string, lessonId: string, signal?: AbortSignal) {
  return call((o) => api.gated.courses[':slug'].lessons[':lessonId'].$get({ param: course(courseSlug, lessonId) }, o), { signal });
}

/** A fresh signed link to a lesson's file number `index` (0-based). */
export function lessonDownloadLink(courseSlug: string, lessonId: string, index: number) {
  return call((o) =>
    api.gated.courses[':slug'].lessons[':lessonId'].downloads[':index'].$get(
      { param: { ...course(courseSlug, lessonId), index: String(index) } },
      o,
    ),
  );
}

/** A signed link to a tool's or market item's file. */
export function itemDownloadLink(segment: 'tools' | 'market', slug: string) {
  const param = { param: { slug: seg(slug) } };
  return call((o) => (segment === 'tools' ? api.gated.tools : api.gated.market)[':slug'].download.$get(param, o));
}

/** The member's progress in one course. */
export function fetchCourseProgress(courseSlug: string, signal?: AbortSignal) {
  return call((o) => api.progress.courses[':slug'].progress.$get({ param: { slug: seg(courseSlug) } }, o), { signal });
}

/** Records `lessonId` as the last lesson viewed and, when `completed` is given, marks or unmarks it. */
export function recordCourseProgress(courseSlug: string, json: ApiInput<(typeof api.progress.courses)[':slug']['progress']['$put']>) {
  return call((o) => api.progress.courses[':slug'].progress.$put({ param: { slug: seg(courseSlug) }, json }, o));
}

/** Progress in every course the member started (the account page). */
export function fetchMyProgress(signal?: AbortSignal) {
  return call((o) => api.users.me.progress.$get({}, o), { signal });
}

/** The member's private RSS URL (made on the first call). */
export function fetchMemberFeed(signal?: AbortSignal) {
  return call((o) => api.users.me.feed.$get({}, o), { signal });
}

/** A new private RSS URL; the old one stops working. */
export function resetMemberFeed() {
  return call((o) => api.users.me.feed.reset.$post({}, o));
}

/** Sends the browser to a signed download link asked for just now. */
export async function startDownload(link: Promise<ApiResult<SignedLink>>): Promise<ApiResult<SignedLink>> {
  const result = await link;
  if (result.ok) window.location.assign(result.data.url);
  return result;
}
