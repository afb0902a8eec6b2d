/**
 * How every write the islands and forms send goes out (public-fetch.ts and api-fetch.ts use it): one
 * call is one user action (one click of Submit), sent with its own Idempotency-Key, and retried
 * under that same key when the network fails or a proxy answers for an instance that did not
 * (502, 504: twice), or while the server says an attempt with the key is still running (409
 * `request_in_progress`, three times), with a growing pause. The server
 * answers a retry of a write that went through with the first answer, so a post cut by a dead
 * instance is stored and mailed once (functions/platform/idempotency). Reads go out as they are.
 * Browser only.
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The pause before each retry. Three cover the server's lease of a dead attempt (10 s). */
export const RETRY_DELAYS_MS = [1_000, 3_000, 8_000];
/** Retries after a network failure: once or twice is worth it; a browser offline longer hears so. */
const NETWORK_RETRIES = 2;
/** A proxy's answer when the instance behind it died or hung (the app itself never answers these). */
const GATEWAY_FAILURES = new Set([502, 504]);

/** A new key: 128 random bits in hex (`crypto.randomUUID` needs a secure context; this does not). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Waits `ms`, or rejects at once with the signal's reason when the caller gives up. */
function pause(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** Whether the answer says an attempt with the key is still running (worth asking again). */
async function stillRunning(res: Response): Promise<boolean> {
  if (res.status !== 409) return false;
  const body = (await res
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { code?: string } } | undefined;
  return body?.error?.code === 'request_in_progress';
}

/**
 * fetch, with headers given as a plain object (lower-case names): a write gets an Idempotency-Key
 * (unless the caller chose one) and its retries; anything else is one fetch.
 */
export async function sendAction(input: RequestInfo | URL, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
  if (!WRITES.has((init.method ?? 'GET').toUpperCase())) return fetch(input, init);
  const request = { ...init, headers: { 'idempotency-key': newIdempotencyKey(), ...init.headers } };
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(input, request);
    } catch (err) {
      if (init.signal?.aborted || attempt >= NETWORK_RETRIES) throw err;
      await pause(RETRY_DELAYS_MS[attempt]!, init.signal);
      continue;
    }
    const again = GATEWAY_FAILURES.has(res.status)
      ? attempt < NETWORK_RETRIES
      : attempt < RETRY_DELAYS_MS.length && (await stillRunning(res));
    if (!again) return res;
    await pause(RETRY_DELAYS_MS[attempt]!, init.signal);
  }
}
