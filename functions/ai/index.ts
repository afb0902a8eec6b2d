/** The drafter port and its adapters; `pickDrafter` chooses one from configuration at start-up. */
import type { AiSettings } from './config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Drafter } from './draft.ts';
import { createOfflineDrafter, type CatalogueItem } from './offline.ts';

export type { Draft, Drafter, DraftRequest } from './draft.ts';

/**
 * The OpenAI adapter when OPENAI_API_KEY is set (any compatible server through OPENAI_BASE_URL), else
 * the offline writer. The OpenAI SDK is loaded only when it is the one in use.
 */
export async function pickDrafter(
  ai: AiSettings,
  deps: { logger: Logger; catalogue: () => Promise<readonly CatalogueItem[]> },
): Promise<Drafter> {
  if (!ai.openai) return createOfflineDrafter({ catalogue: deps.catalogue });
  const { createOpenAiDrafter } = await import('./openai.ts');
  return createOpenAiDrafter({ ...ai.openai, logger: deps.logger });
}
