/**
 * The site's public forms' typed clients (contact, newsletter sign-up, the tools' lead dialog):
 * hono/client over their routes' types (imported as types only), sent through the public fetch
 * (no token; a write is one action with its Idempotency-Key and retries), answering the one
 * ApiResult (api-result.ts). Apart from the API clients (api.ts) because the contact and newsletter
 * forms are wired from every page's shell script, whose JavaScript budget the API module would
 * break. Browser only.
 */
import { hc, type ClientRequestOptions } from 'hono/client';
import type { ContactRoutes } from '../../../functions/contact/routes.ts';
import type { LeadRoutes } from '../../../functions/leads/routes.ts';
import type { NewsletterRoutes } from '../../../functions/newsletter/routes.ts';
import type { ApiInput } from './api.ts';
import { call, GENERIC_ERROR, type ApiFailure } from './api-result.ts';
import { publicFetch } from './public-fetch.ts';

const visitor: ClientRequestOptions = { fetch: publicFetch };

/** The forms' typed clients, by the prefix each route is mounted under (functions/api.ts). */
export const formApi = {
  contact: /* @__PURE__ */ hc<ContactRoutes>('/api/contact', visitor),
  newsletter: /* @__PURE__ */ hc<NewsletterRoutes>('/api/newsletter', visitor),
  leads: /* @__PURE__ */ hc<LeadRoutes>('/api/leads', visitor),
};

/** What a form says when no answer came at all (offline, the connection cut after the retries). */
export const NETWORK_ERROR = "We couldn't reach our server. Check your connection and try again.";

/** The forms show the server's message whatever the status, as they always have (its 500 says "on our side"). */
const asSent = { serverText: true };

/** Sends the contact form's message. */
export function sendContact(json: ApiInput<typeof formApi.contact.index.$post>) {
  return call((o) => formApi.contact.index.$post({ json }, o), asSent);
}

/** Signs an address up for the newsletter (a confirmation mail follows). */
export function subscribe(json: ApiInput<typeof formApi.newsletter.subscribe.$post>) {
  return call((o) => formApi.newsletter.subscribe.$post({ json }, o), asSent);
}

/** Asks for a tool's download link (the server emails it too). */
export function requestLead(json: ApiInput<typeof formApi.leads.index.$post>) {
  return call((o) => formApi.leads.index.$post({ json }, o), asSent);
}

/** A failure's text for a form: the network's when there was no answer, else the server's message (or the generic one). */
export function failureText(failure: ApiFailure): string {
  if (failure.kind === 'error' && failure.status === undefined) return NETWORK_ERROR;
  return 'message' in failure ? failure.message : GENERIC_ERROR;
}

/** The first message the server sent for a field, if any (a 422's `fields`). */
export function fieldMessage(failure: ApiFailure, field: string): string | undefined {
  return failure.kind === 'error' ? failure.fields?.[field]?.[0] : undefined;
}
