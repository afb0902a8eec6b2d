/** AI drafting's settings: a model through the OpenAI SDK (any compatible server) when a key is set, else the offline drafter. */
import { z } from 'zod';
import { defineSettings, httpUrl } from '../platform/config/settings.ts';

export const aiSettings = defineSettings(
  {
    /** AI drafting (POST /openai/generate): a model through the OpenAI SDK when set, else the offline drafter. */
    OPENAI_API_KEY: z.string().min(1).optional(),
    /** Any OpenAI-compatible server's API root (…/v1); OpenAI's own when unset. */
    OPENAI_BASE_URL: httpUrl().optional(),
    OPENAI_MODEL: z.string().min(1).max(100).default('gpt-5.4-mini'),
    OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(45_000),
  },
  (env) => {
    const openai: { apiKey: string; baseUrl?: string; model: string; timeoutMs: number } | undefined = env.OPENAI_API_KEY
      ? {
          apiKey: env.OPENAI_API_KEY,
          ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL.replace(/\/$/, '') } : {}),
          model: env.OPENAI_MODEL,
          timeoutMs: env.OPENAI_TIMEOUT_MS,
        }
      : undefined;
    return { ...(openai ? { openai } : {}) };
  },
);

export type AiSettings = ReturnType<typeof aiSettings.read>;
