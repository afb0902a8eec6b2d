/**
 * JSON POST for the site's forms, reading the API's one error shape
 * `{ error: { code, message, fields? } }`. Never throws: a network failure is status 0. Requests go
 * out through the API module's public fetch (imported from its own module: this is in every page's
 * shell, which must not load the API clients); the answers' types are the routes' (FormAnswers).
 */
import { publicFetch } from '../../lib/browser/public-fetch.ts';

export interface ApiError {
  code: string;
  message: string;
  /** Messages per field, first one shown next to the field. */
  fields?: Record<string, string[] | undefined>;
}

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: ApiError };

export const GENERIC_ERROR = 'Something went wrong. Please try again.';
export const NETWORK_ERROR = "We couldn't reach our server. Check your connection and try again.";

function asApiError(body: unknown): ApiError {
  const error = (body as { error?: Partial<ApiError> } | null)?.error;
  if (!error || typeof error.message !== 'string' || !error.message) return { code: 'unknown', message: GENERIC_ERROR };
  const fields = error.fields && typeof error.fields === 'object' ? error.fields : undefined;
  return { code: typeof error.code === 'string' ? error.code : 'unknown', message: error.message, fields };
}

/** POSTs `body` as JSON to a same-origin API path. */
export async function postJson<T = unknown>(path: string, body: unknown): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await publicFetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return { ok: false, status: 0, error: { code: 'network', message: NETWORK_ERROR } };
  }
  const data: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, status: res.status, data: data as T };
  // A proxy's error page has no JSON error body: asApiError falls back to the generic text.
  return { ok: false, status: res.status, error: asApiError(data) };
}

/** First message for a field, if the server sent one. */
export function fieldMessage(error: ApiError, field: string): string | undefined {
  return error.fields?.[field]?.[0];
}

/** Shows or clears the busy state of a submit button (disabled, spinner visible, aria-busy). */
export function setBusy(form: HTMLFormElement, busy: boolean): void {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = busy;
  form.setAttribute('aria-busy', String(busy));
  form.querySelector<HTMLElement>('[data-spinner]')?.toggleAttribute('hidden', !busy);
}
