import { Hono } from 'hono';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Limit, RateLimitService } from '../abuse/service.ts';
import { AppError, createErrorHandler } from '../errors.ts';
import type { AppEnv } from './context.ts';
import { formPost, type FormSender } from './form-post.ts';
import { emailAddress, honeypot } from './request.ts';

const LIMITS = {
  perIp: { name: 'test:ip', max: 5, windowSeconds: 60 },
  perAddress: { name: 'test:email', max: 2, windowSeconds: 60 },
};

const Schema = z.object({ email: emailAddress, topic: z.string(), website: honeypot });

/** A limiter that records every check and refuses the checks named in `refuse`. */
function makeLimiter(refuse: string[] = []) {
  const checks: [string, string][] = [];
  const limiter = {
    async enforce(list: [Limit, string][]) {
      for (const [limit, subject] of list) {
        checks.push([limit.name, subject]);
        if (refuse.includes(limit.name)) throw new AppError('rate_limited', 'Too many requests.');
      }
    },
  } as unknown as RateLimitService;
  return { limiter, checks };
}

function makeApp(limiter: RateLimitService) {
  const handle = vi.fn(async (input: { email: string; topic: string }, sender: FormSender) => ({ got: input.topic, bot: sender.bot }));
  const app = new Hono<AppEnv>().post('/', formPost({ schema: Schema, limits: LIMITS, limiter, trustProxy: 1, status: 202, handle }));
  app.onError(createErrorHandler(pino({ level: 'silent' })));
  return { app, handle };
}

const post = (app: Hono<AppEnv>, body: unknown) =>
  app.request('/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7', 'user-agent': 'test-agent' },
    body: JSON.stringify(body),
  });

describe('formPost', () => {
  it('limits per IP and per address, then answers the domain result with the given status', async () => {
    const { limiter, checks } = makeLimiter();
    const { app, handle } = makeApp(limiter);
    const res = await post(app, { email: ' Someone@Example.com ', topic: 'seo' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ got: 'seo', bot: false });
    expect(checks).toEqual([
      ['test:ip', '203.0.113.7'],
      ['test:email', 'someone@example.com'],
    ]);
    expect(handle).toHaveBeenCalledWith(
      { email: 'someone@example.com', topic: 'seo' },
      { ip: '203.0.113.7', userAgent: 'test-agent', bot: false },
    );
  });

  it('hands a filled honeypot to the domain as a bot, without the field', async () => {
    const { limiter } = makeLimiter();
    const { app, handle } = makeApp(limiter);
    const res = await post(app, { email: 'a@example.com', topic: 'ads', website: 'http://spam.example' });
    expect(res.status).toBe(202);
    expect(handle.mock.calls[0]![0]).toEqual({ email: 'a@example.com', topic: 'ads' });
    expect(handle.mock.calls[0]![1].bot).toBe(true);
  });

  it('refuses an invalid body with 422 before counting a use', async () => {
    const { limiter, checks } = makeLimiter();
    const { app, handle } = makeApp(limiter);
    const res = await post(app, { email: 'not an address', topic: 'seo' });
    expect(res.status).toBe(422);
    expect(checks).toEqual([]);
    expect(handle).not.toHaveBeenCalled();
  });

  it('answers 429 and leaves the domain alone when a limit is reached', async () => {
    const { limiter } = makeLimiter(['test:email']);
    const { app, handle } = makeApp(limiter);
    const res = await post(app, { email: 'a@example.com', topic: 'seo' });
    expect(res.status).toBe(429);
    expect(handle).not.toHaveBeenCalled();
  });
});
