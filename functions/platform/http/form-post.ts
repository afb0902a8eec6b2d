/**
 * The recipe every public form endpoint follows (contact, leads, newsletter sign-up): read and
 * validate the body, count one use against a per-IP and a per-address limit, let the domain act,
 * answer JSON. The honeypot field is taken off the body and handed over as `bot`: each domain
 * decides what a bot's post does, while the answer stays the same so a bot cannot tell it was caught.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { Limit, RateLimitService } from '../abuse/service.ts';
import type { Context } from 'hono';
import type { AppEnv } from './context.ts';
import { clientIp, readBody } from './request.ts';
import type { BodyInput } from './validators.ts';

/** What a form route needs besides its domain's service. */
export interface FormGuard {
  limiter: RateLimitService;
  /** How many proxies in front of the server to trust (see `clientIp`). */
  trustProxy: number;
}

/** The two limits a public form is held to. */
export interface FormLimits {
  perIp: Limit;
  perAddress: Limit;
}

/** Who posted the form, as far as the request tells. */
export interface FormSender {
  ip: string;
  userAgent: string | undefined;
  /** The honeypot field was filled in: a bot posted this. */
  bot: boolean;
}

/** A form body: an address to limit per, and the honeypot (`website`). */
type FormBody = { email: string; website?: string | undefined };

export interface FormPostOptions<S extends z.ZodType<FormBody>, A extends object, Code extends ContentfulStatusCode> extends FormGuard {
  schema: S;
  limits: FormLimits;
  /** Status of the answer, e.g. 201 for something received or 202 for a pending sign-up. */
  status: Code;
  /** The domain's work; its result is the JSON answer. */
  handle: (input: Omit<z.output<S>, 'website'>, sender: FormSender) => Promise<A>;
}

/**
 * A route handler for a public form post (see the module comment for the steps). It reads its body
 * as `jsonBody` does, and its context names the body's types, so `hono/client` checks the browser's.
 */
export function formPost<S extends z.ZodType<FormBody>, A extends object, Code extends ContentfulStatusCode>(
  options: FormPostOptions<S, A, Code>,
) {
  const { schema, limits, limiter, trustProxy, status, handle } = options;
  return async (c: Context<AppEnv, string, BodyInput<z.input<S>, z.output<S>>>) => {
    const { website, ...input } = await readBody(c, schema);
    const ip = clientIp(c, trustProxy);
    await limiter.enforce([
      [limits.perIp, ip],
      [limits.perAddress, input.email],
    ]);
    const answer = await handle(input, { ip, userAgent: c.req.header('user-agent'), bot: Boolean(website) });
    return c.json(answer, status);
  };
}
