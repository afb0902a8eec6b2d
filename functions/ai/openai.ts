/**
 * The OpenAI adapter of the drafter port, through the official `openai` SDK: one Chat Completions
 * call with structured output (a strict JSON schema made from DraftSchema by the SDK's zod helper),
 * so any OpenAI-compatible server (OPENAI_BASE_URL: a proxy, vLLM, Ollama, LM Studio) works too.
 * Every failure becomes a clear AppError: the provider's 429 passes through as rate_limited (with its
 * Retry-After); a timeout, a connection failure, a provider error or an answer that is not a valid
 * draft answer 503 unavailable. Nothing the provider says is shown to the user beyond a refusal.
 */
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { checkDraft, DraftSchema, type Draft, type Drafter, type DraftRequest } from './draft.ts';

export interface OpenAiDrafterOptions {
  apiKey: string;
  /** An OpenAI-compatible server's API root (…/v1); OpenAI's own when unset. */
  baseUrl?: string;
  model: string;
  /** Time allowed for the whole answer. */
  timeoutMs: number;
  /** Retries of connection failures, 408, 409, 429 and 5xx answers (the SDK's rule); 0 by default, so the wait stays bounded by the timeout. */
  maxRetries?: number;
  logger: Logger;
}

const SYSTEM = [
  'You draft content for Beacon Growth, a digital growth consultancy (SEO, automation, content, websites, social media).',
  'Write for small-business owners: practical, specific and plain.',
  'Answer with the requested JSON only. The title is one line (3-120 characters); the description is one or two plain sentences (10-300 characters);',
  'the body is Markdown with ## headings, short paragraphs and lists, no HTML; the tags are 2-6 short topics in Title Case.',
  'For a course, the body lists its modules and lessons; for a tool or a market item, what it is, what is included and how to use it.',
].join(' ');

const FORMAT = zodResponseFormat(DraftSchema, 'content_draft');

const unavailable = (message: string) => new AppError('unavailable', message, { headers: { 'Retry-After': '30' } });

/** The provider's Retry-After in whole seconds (1 hour at most), when it sent a usable one. */
function retryAfter(headers: Headers | undefined): number | undefined {
  const raw = headers?.get('retry-after-ms');
  if (raw && /^\d+(\.\d+)?$/.test(raw)) return Math.max(1, Math.ceil(Number(raw) / 1000));
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Math.ceil(Number(value)) : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) : undefined;
}

/** An SDK failure as the AppError the route answers. */
export function providerError(err: unknown, logger: Logger): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    logger.warn('AI drafting timed out');
    return unavailable('The AI service did not answer in time. Please try again.');
  }
  if (err instanceof OpenAI.APIUserAbortError) return new AppError('request_timeout', 'The request was cancelled.');
  if (err instanceof OpenAI.APIConnectionError) {
    logger.warn({ err: err.cause ?? err }, 'AI drafting could not reach the provider');
    return unavailable('The AI service could not be reached. Please try again later.');
  }
  if (err instanceof OpenAI.RateLimitError) {
    const seconds = retryAfter(err.headers) ?? 60;
    logger.warn({ status: 429, retryAfter: seconds }, 'AI provider rate-limited the drafting call');
    return new AppError('rate_limited', `The AI service is busy. Please try again in ${seconds} seconds.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
  if (err instanceof OpenAI.APIError) {
    // 401/403: our key; 400/404/422: our model name or request; 5xx: theirs. None is the user's to fix.
    logger.error({ status: err.status, code: err.code, type: err.type, message: err.message }, 'AI provider refused the drafting call');
    return unavailable('The AI service is unavailable right now. Please try again later.');
  }
  logger.error({ err }, 'AI drafting failed');
  return unavailable('The AI service sent an answer that could not be read. Please try again.');
}

export function createOpenAiDrafter({ apiKey, baseUrl, model, timeoutMs, maxRetries = 0, logger }: OpenAiDrafterOptions): Drafter {
  const client = new OpenAI({ apiKey, baseURL: baseUrl ?? null, timeout: timeoutMs, maxRetries });

  async function complete(request: DraftRequest, signal: AbortSignal | undefined) {
    try {
      return await client.chat.completions.create(
        {
          model,
          messages: [
            { role: 'system', content: SYSTEM },
            { role: 'user', content: request.prompt },
          ],
          response_format: FORMAT,
        },
        signal ? { signal } : {},
      );
    } catch (err) {
      throw providerError(err, logger);
    }
  }

  return {
    kind: 'openai',
    async draft(request, { signal } = {}): Promise<Draft> {
      const completion = await complete(request, signal);
      const choice = (completion as Partial<typeof completion>).choices?.[0];
      const message = choice?.message;
      if (message?.refusal) {
        throw new AppError('validation_failed', 'The AI service declined this prompt. Please rephrase it.', {
          fields: { prompt: [message.refusal.slice(0, 300)] },
        });
      }
      if (choice?.finish_reason === 'length') {
        logger.warn({ model }, 'AI draft cut off at the token limit');
        throw unavailable('The AI answer was cut off before the draft was complete. Please try a narrower prompt.');
      }
      let raw: unknown;
      try {
        raw = JSON.parse(message?.content ?? '');
      } catch {
        raw = undefined;
      }
      const draft = checkDraft(raw);
      if (!draft) {
        logger.warn(
          { model, finishReason: choice?.finish_reason, length: message?.content?.length ?? 0 },
          'AI answer is not a valid draft',
        );
        throw unavailable('The AI service sent an answer that is not a valid draft. Please try again.');
      }
      return draft;
    },
  };
}
