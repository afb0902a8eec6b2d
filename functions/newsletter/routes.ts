/**
 * Newsletter endpoints. JSON clients get JSON; the confirmation and unsubscribe pages post plain
 * HTML forms and get a redirect to a result page (so they work without JavaScript).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../platform/http/context.ts';
import { formPost, type FormGuard } from '../platform/http/form-post.ts';
import { emailAddress, honeypot, isFormPost, linkToken, sitePath } from '../platform/http/request.ts';
import { linkTokenBody } from '../platform/http/validators.ts';
import { redirectLocal } from '../platform/http/respond.ts';
import { NewsletterLinkError, type NewsletterService } from './service.ts';

const SubscribeSchema = z.object({
  email: emailAddress,
  source: sitePath.optional(),
  website: honeypot,
});

const LIMITS = {
  perIp: { name: 'newsletter:ip', max: 10, windowSeconds: 3600 },
  perAddress: { name: 'newsletter:email', max: 3, windowSeconds: 3600 },
};

export interface NewsletterRouteDeps extends FormGuard {
  newsletter: NewsletterService;
}

/**
 * Token from the query (one-click unsubscribe puts it there) or from the body (the pages' forms).
 * A malformed token is a link problem like any other, shown on the page for form posts.
 */
function tokenFrom(c: AppContext, body: { token: string } | undefined): string {
  const fromQuery = c.req.query('token');
  if (fromQuery !== undefined) {
    const token = linkToken.safeParse(fromQuery);
    if (!token.success) throw new NewsletterLinkError('invalid');
    return token.data;
  }
  return body!.token;
}

export function createNewsletterRoutes({ newsletter, ...guard }: NewsletterRouteDeps) {
  return new Hono<AppEnv>()
    .post(
      '/subscribe',
      formPost({
        ...guard,
        schema: SubscribeSchema,
        limits: LIMITS,
        status: 202,
        handle: async ({ email, source }, { bot }) => {
          // A bot is answered as usual, and nothing is done.
          if (!bot) await newsletter.subscribe(email, source ?? null);
          return { status: 'pending' };
        },
      }),
    )
    .post('/confirm', linkTokenBody, async (c) => {
      const form = isFormPost(c);
      try {
        const outcome = await newsletter.confirm(tokenFrom(c, c.req.valid('json')));
        return form
          ? redirectLocal(c, '/newsletter/confirmed')
          : c.json({ status: outcome === 'confirmed' ? 'confirmed' : 'already-confirmed' });
      } catch (err) {
        if (!form || !(err instanceof NewsletterLinkError)) throw err;
        return redirectLocal(c, `/newsletter/confirm?error=${err.problem}`);
      }
    })
    .post('/unsubscribe', linkTokenBody, async (c) => {
      const form = isFormPost(c) && !c.req.query('token');
      try {
        await newsletter.unsubscribe(tokenFrom(c, c.req.valid('json')));
        return form ? redirectLocal(c, '/newsletter/unsubscribed') : c.json({ status: 'unsubscribed' });
      } catch (err) {
        if (!form || !(err instanceof NewsletterLinkError)) throw err;
        return redirectLocal(c, `/newsletter/unsubscribe?error=${err.problem}`);
      }
    });
}

/** The newsletter API as the browser's typed client (hono/client) sees it. */
export type NewsletterRoutes = ReturnType<typeof createNewsletterRoutes>;
