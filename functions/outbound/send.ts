/**
 * One webhook request: a POST of the JSON body with its headers, over node:http(s) so the connection
 * uses the policy's checked DNS lookup (targets.ts) and nothing else resolves the name. Redirects are
 * never followed (node:http does not follow them; a 3xx is answered as a failure like any non-2xx),
 * and the whole request, answer included, is bounded by a timeout. The answer's body is read up to a
 * few KB (its first line goes to the log) and the rest discarded.
 */
import http from 'node:http';
import https from 'node:https';
import { checkUrl, guardedLookup, type TargetPolicy } from './targets.ts';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What an attempt got: the status, or no answer at all (refused, timed out, unreachable) with why. */
export type SendResult = { status: number; error?: string } | { status: null; error: string };

/** Sends one request; never throws (an error is a result the delivery log keeps). */
export type SendWebhook = (request: WebhookRequest) => Promise<SendResult>;

const KEEP_BYTES = 2048;
const USER_AGENT = 'beacon-webhooks/1 (+https://www.standardwebhooks.com/)';

/** The send function for `policy`, each request bounded by `timeoutMs`. */
export function createSender(policy: TargetPolicy, timeoutMs: number): SendWebhook {
  const lookup = guardedLookup(policy);
  return (request) =>
    new Promise<SendResult>((resolve) => {
      let url: URL;
      try {
        url = checkUrl(request.url, policy);
      } catch (err) {
        resolve({ status: null, error: (err as Error).message });
        return;
      }
      const body = Buffer.from(request.body);
      const client = url.protocol === 'https:' ? https : http;
      const signal = AbortSignal.timeout(timeoutMs);
      const req = client.request(url, {
        method: 'POST',
        lookup,
        signal,
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
        },
      });
      const fail = (err: Error) =>
        resolve({
          status: null,
          error: signal.aborted ? `No answer within ${timeoutMs / 1000} s.` : err.message || 'The connection failed.',
        });
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < KEEP_BYTES) chunks.push(chunk.subarray(0, KEEP_BYTES - kept));
          kept += chunk.length;
        });
        res.on('error', fail);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve({ status });
          const text = Buffer.concat(chunks).toString('utf8').split('\n')[0]!.slice(0, 200);
          const why = status >= 300 && status < 400 ? `A redirect (${status}) is not followed.` : `HTTP ${status}`;
          resolve({ status, error: text ? `${why}: ${text}` : why });
        });
      });
      req.end(body);
    });
}
