/**
 * The events islands' calls, through the typed clients of src/lib/browser/api.ts (answer types come
 * from functions/events/routes.ts). Visitors ask for the seats left without a token; everything else
 * goes with the member's. Browser only.
 */
import { api, call, publicApi, type ApiData, type ApiResult } from '../../lib/browser/api.ts';

const param = (slug: string) => ({ param: { slug: encodeURIComponent(slug) } });

export type RegistrationState = ApiData<(typeof api.events)[':slug']['registration']['$get']>;
export type MyEvent = ApiData<typeof api.myEvents.index.$get>['events'][number];
export type Registrants = ApiData<(typeof api.eventsAdmin)[':slug']['registrants']['$get']>;

/** Whether the caller holds a seat and how many are left (visitors: the seats only). */
export function fetchRegistration(slug: string, signedIn: boolean, signal?: AbortSignal) {
  const client = signedIn ? api.events : publicApi.events;
  return call((o) => client[':slug'].registration.$get(param(slug), o), { signal });
}

/** Takes a seat (the confirmation mail with the calendar file follows). */
export function register(slug: string) {
  return call((o) => api.events[':slug'].registration.$post(param(slug), o));
}

/** Gives the seat back. */
export function cancelRegistration(slug: string) {
  return call((o) => api.events[':slug'].registration.$delete(param(slug), o));
}

/**
 * The join link's answer: the URL, not open yet (the server's 409 names when it opens), or why not.
 * The one ApiResult with one more failure kind, rather than a shape of its own: the island tells
 * "opens at" apart from the other failures, which it shows as every ApiResult's.
 */
export type JoinResult = ApiResult<{ url: string }> | { ok: false; kind: 'not-open'; opensAt: string };

/** The join URL, once the link has opened; before that, when it opens. */
export async function fetchJoinLink(slug: string, signal?: AbortSignal): Promise<JoinResult> {
  let opensAt: string | undefined;
  const result = await call(
    async (o) => {
      const res = await api.events[':slug'].join.$get(param(slug), o);
      // The 409's body, read from a copy (call() reads the answer itself): `error.opensAt` says it is not open yet.
      if (res.status === 409) opensAt = ((await res.clone().json()) as Awaited<ReturnType<typeof res.json>>).error.opensAt;
      return res;
    },
    { signal },
  );
  if (opensAt) return { ok: false, kind: 'not-open', opensAt };
  if (result.ok)
    return 'url' in result.data
      ? { ok: true, data: { url: result.data.url } }
      : { ok: false, kind: 'error', message: 'No link came back.' };
  return result;
}

/** The recording's URL, for a registrant. */
export function fetchRecording(slug: string) {
  return call((o) => api.events[':slug'].recording.$get(param(slug), o));
}

/** The member's upcoming events (the account page). */
export function fetchMyEvents(signal?: AbortSignal) {
  return call((o) => api.myEvents.index.$get({}, o), { signal });
}

/** An event's registrants (staff). */
export function fetchRegistrants(slug: string, signal?: AbortSignal) {
  return call((o) => api.eventsAdmin[':slug'].registrants.$get(param(slug), o), { signal });
}
