/**
 * POST /openai/generate (spec point 7): a content draft for the create form, for editors and admins
 * only (from a live session), rate-limited per user. The body is the spec's `{ prompt }` ('Generate a {type} about: {text}'),
 * or `{ prompt, type }` with the user's text alone; the answer is `{ content: { title, description,
 * body, tags }, source }`, checked against DraftSchema before it leaves (a drafter's bad answer is a
 * 503, never a 500).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { RateLimitService } from '../platform/abuse/service.ts';
import { CONTENT_TYPES } from '#shared/content/registry.ts';
import { AppError } from '../platform/errors.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { multiLine } from '../platform/http/request.ts';
import { jsonBody } from '../platform/http/validators.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import { DraftSchema, draftRequest, type Drafter } from './draft.ts';

/** Longest prompt accepted, in characters. */
export const MAX_PROMPT_LENGTH = 2000;

const GenerateBody = z
  .object({
    // A prompt box: line breaks are fine, other control characters are not.
    prompt: multiLine('Prompt', MAX_PROMPT_LENGTH),
    type: z.enum(CONTENT_TYPES).optional(),
  })
  .strict();

/** Drafts per user: each can cost money at the provider. */
export const GENERATE_LIMIT = { name: 'ai:generate:user', max: 30, windowSeconds: 3600 };

export interface AiRouteDeps {
  drafter: Drafter;
  limiter: RateLimitService;
  guards: Guards;
}

export function createAiRoutes({ drafter, limiter, guards }: AiRouteDeps) {
  return new Hono<AppEnv>()
    .use(guards.identify)
    .post('/generate', guards.live, guards.staff('generate content drafts'), jsonBody(GenerateBody), async (c) => {
      const viewer = requireViewer(c);
      const { prompt, type } = c.req.valid('json');
      await limiter.enforce([[GENERATE_LIMIT, viewer.id]]);
      const draft = await drafter.draft(draftRequest(prompt, type), { signal: c.req.raw.signal });
      // Adapters check their answers; this is the last guard before the browser fills the form with it.
      const content = DraftSchema.safeParse(draft);
      if (!content.success) {
        c.get('log')().error({ drafter: drafter.kind, issues: content.error.issues.length }, 'drafter answered an invalid draft');
        throw new AppError('unavailable', 'The draft could not be generated. Please try again.');
      }
      return c.json({ content: content.data, source: drafter.kind });
    });
}

/** The drafting API as the browser's typed client (hono/client) sees it. */
export type AiRoutes = ReturnType<typeof createAiRoutes>;
