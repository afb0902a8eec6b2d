/**
 * The signed-in member's profile, asked with the session's own token: the one API call the sign-in
 * client makes (client.ts). A typed client of its own over the user routes' types, sent as the
 * public clients send (publicFetch) with the token named, which is what the member transport does
 * when a call names its token; not api.ts's, whose transport refreshes tokens through the sign-in
 * client, so the two would import each other. Browser only.
 */
import { hc, type InferResponseType } from 'hono/client';
import type { UserRoutes } from '../../../../functions/users/routes.ts';
import { call } from '../api-result.ts';
import { publicFetch } from '../public-fetch.ts';

const users = /* @__PURE__ */ hc<UserRoutes>('/api/users', { fetch: publicFetch });

/** The signed-in member's profile as the user API answers it. */
export type Profile = InferResponseType<(typeof users.byEmail)[':email']['$get']>;

/** GET /api/users/byEmail/{email} with the session's token (spec point 4). */
export function fetchProfile(email: string, token: string) {
  return call((o) => users.byEmail[':email'].$get({ param: { email } }, o), { token });
}
