/**
 * The API's answers as the tests read them, never written by hand (issue 21): each comes from a route
 * chain's exported type through hono/client's InferResponseType, as the browser's typed API does
 * (src/lib/browser/api.ts), so a changed answer fails the type check of every test that reads it.
 * Routes hono/client cannot type (the creator API and uploads, registered in loops or one by one;
 * the auth service's GoTrue answers) are typed from what their handlers answer, as JSON. Public
 * content items are `PublicItem` (#shared/content/registry.ts), which those routes are typed from.
 * Types only: nothing here runs.
 */
import type { Hono } from 'hono';
import type { hc, InferResponseType } from 'hono/client';
import type { JSONParsed } from 'hono/utils/types';
import type { AdminRoutes } from '../../functions/admin/routes.ts';
import type { AiRoutes } from '../../functions/ai/routes.ts';
import type { SigningKeys } from '../../functions/auth/keys.ts';
import type { UserJson } from '../../functions/auth/schema.ts';
import type { Session } from '../../functions/auth/service.ts';
import type { ContactRoutes } from '../../functions/contact/routes.ts';
import type { PublicContentRoutes } from '../../functions/content/routes.ts';
import type { ContentWriteAnswers } from '../../functions/content/create/routes.ts';
import type { EmailAdminRoutes } from '../../functions/email/admin-routes.ts';
import type { GatedContentRoutes } from '../../functions/content/gated/routes.ts';
import type { LeadRoutes } from '../../functions/leads/routes.ts';
import type { NewsletterRoutes } from '../../functions/newsletter/routes.ts';
import type { NewsletterArchiveRoutes } from '../../functions/newsletter/archive/routes.ts';
import type { NewsletterAdminRoutes } from '../../functions/newsletter/issues/routes.ts';
import type { TestBillingRoutes } from '../../functions/payments/embedded/routes.ts';
import type { PaymentRoutes } from '../../functions/payments/routes.ts';
import type { errorBody } from '../../functions/platform/errors.ts';
import type { ProgressRoutes } from '../../functions/content/progress/routes.ts';
import type { DirectUploads } from '../../functions/uploads/direct.ts';
import type { UploadResult } from '../../functions/uploads/service.ts';
import type { UserRoutes } from '../../functions/users/routes.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any chain's env, schema and base path, as hc's own bound
type Client<Routes extends Hono<any, any, any>> = ReturnType<typeof hc<Routes>>;

/** The typed clients' shapes, by the prefix each route group is mounted under (functions/app.ts). */
export interface Api {
  /** /api/users */
  users: Client<UserRoutes>;
  /** /api/content (gated reads) */
  gated: Client<GatedContentRoutes>;
  /** /api/content (course progress) */
  progress: Client<ProgressRoutes>;
  /** /api/public */
  content: Client<PublicContentRoutes>;
  /** /api/payments */
  payments: Client<PaymentRoutes>;
  /** /api/payments/test */
  testBilling: Client<TestBillingRoutes>;
  /** /api/admin */
  admin: Client<AdminRoutes>;
  /** /api/email */
  emails: Client<EmailAdminRoutes>;
  /** /openai */
  ai: Client<AiRoutes>;
  /** /api/contact */
  contact: Client<ContactRoutes>;
  /** /api/newsletter */
  newsletter: Client<NewsletterRoutes>;
  /** /api/newsletter (the archive) */
  newsletterArchive: Client<NewsletterArchiveRoutes>;
  /** /api/admin/newsletter (staff's issues) */
  newsletterAdmin: Client<NewsletterAdminRoutes>;
  /** /api/leads */
  leads: Client<LeadRoutes>;
}

/** What a typed client method's route answers (its JSON body). */
export type Answer<Method> = InferResponseType<Method>;

/** GET /api/users/me for a signed-in caller: who the server takes them to be. */
export type ViewerAnswer = Extract<Answer<Api['users']['me']['$get']>, { viewer: object }>;

/** The API's one error body, `{ error: { code, message, requestId?, fields?, requiredLevel? } }`. */
export type ErrorAnswer = ReturnType<typeof errorBody>;

/** A server type as its JSON arrives (dates as strings, undefined fields gone). */
export type Json<T> = JSONParsed<T>;

/** The creator API's answers (functions/content/create/routes.ts): a written item with its page, an item as its form holds it. */
export type WrittenAnswer = Json<ContentWriteAnswers['written']>;
export type EditableAnswer = Json<ContentWriteAnswers['editable']>;

/** POST /api/upload: where the stored file is (the route answers the result's `url` only). */
export type UploadAnswer = Json<Pick<UploadResult, 'url'>>;
/** POST /api/upload/complete: where the checked file is. */
export type CompletedUploadAnswer = Json<Awaited<ReturnType<DirectUploads['complete']>>>;

/** POST /auth/v1/token (password or refresh grant): the session. */
export type SessionAnswer = Json<Session>;
/** POST /auth/v1/signup when the address must be confirmed first: the new user. */
export type SignedUpAnswer = Json<UserJson>;
/** GET /auth/v1/.well-known/jwks.json */
export type JwksAnswer = Json<ReturnType<SigningKeys['jwks']>>;
