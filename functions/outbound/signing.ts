/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/): a secret is `whsec_` and base64 of
 * 32 random bytes; a request's signature is `v1,` and base64 of HMAC-SHA256, keyed with the decoded
 * secret, of `{webhook-id}.{webhook-timestamp}.{body}`. During a rotation the request carries one
 * signature per valid secret, space-separated, so a receiver holding either verifies it. Signed with
 * node:crypto; the tests verify with the specification's reference library (`standardwebhooks`).
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new endpoint secret. */
export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** A new event id (`msg_` and 22 url-safe characters): the `webhook-id` of every delivery of the event. */
export const newEventId = (): string => `msg_${randomBytes(16).toString('base64url')}`;

/** One `v1,<base64>` signature of the message with `secret`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers of one attempt, signed with every secret given (current first). */
export function signedHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
