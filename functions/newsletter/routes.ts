/**
 * Newsletter endpoints. JSON clients get JSON; the confirmation and unsubscribe pages post plain
 * HTML forms and get a redirect to a result page (so they work without JavaScript).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { RateLimiter } from '../abuse/rate-limit.ts';
import { clientIp, emailAddress, honeypot, isFormPost, readBody } from '../lib/request.ts';
import { NewsletterLinkError, type Newsletter } from './service.ts';

const SubscribeSchema = z.object({
  email: emailAddress,
  source: z.string().trim().max(200).regex(/^\/[^\s]*$/, 'Must be a page path').optional(),
  website: honeypot,
});

const TokenSchema = z.object({ token: z.string().min(1, 'The link is incomplete').max(2048) });

const LIMITS = {
  perIp: { name: 'newsletter:ip', max: 10, windowSeconds: 3600 },
  perAddress: { name: 'newsletter:email', max: 3, windowSeconds: 3600 },
};

export interface NewsletterRouteDeps {
  newsletter: Newsletter;
  limiter: RateLimiter;
  trustProxy: number;
}

/** Token from the query (one-click unsubscribe puts it there) or from the body. */
async function tokenFrom(c: Context): Promise<string> {
  const fromQuery = c.req.query('token');
  if (fromQuery) return fromQuery;
  return (await readBody(c, TokenSchema)).token;
}

export function createNewsletterRoutes({ newsletter, limiter, trustProxy }: NewsletterRouteDeps) {
  return new Hono()
    .post('/subscribe', async (c) => {
      const body = await readBody(c, SubscribeSchema);
      await limiter.enforce([
        [LIMITS.perIp, clientIp(c, trustProxy)],
        [LIMITS.perAddress, body.email],
      ]);
      // A filled honeypot means a bot: answer as usual, do nothing.
      if (!body.website) await newsletter.subscribe(body.email, body.source ?? null);
      return c.json({ status: 'pending' }, 202);
    })
    .post('/confirm', async (c) => {
      const form = isFormPost(c);
      try {
        const outcome = await newsletter.confirm(await tokenFrom(c));
        return form ? c.redirect('/newsletter/confirmed', 303) : c.json({ status: outcome === 'confirmed' ? 'confirmed' : 'already-confirmed' });
      } catch (err) {
        if (!form || !(err instanceof NewsletterLinkError)) throw err;
        return c.redirect(`/newsletter/confirm?error=${err.problem}`, 303);
      }
    })
    .post('/unsubscribe', async (c) => {
      const form = isFormPost(c) && !c.req.query('token');
      try {
        await newsletter.unsubscribe(await tokenFrom(c));
        return form ? c.redirect('/newsletter/unsubscribed', 303) : c.json({ status: 'unsubscribed' });
      } catch (err) {
        if (!form || !(err instanceof NewsletterLinkError)) throw err;
        return c.redirect(`/newsletter/unsubscribe?error=${err.problem}`, 303);
      }
    });
}
