/**
 * AI drafting in the create form (ContentForm.tsx): the prompt, Generate's state, its error, and
 * whether a draft was made. A draft fills the form through `fill`. Browser only.
 */
import { useState } from 'react';
import type { ContentType } from '#shared/content/registry.ts';
import { withGenerated, type ContentDraft } from '#shared/create-form.ts';
import { generateDraft } from '../../lib/browser/create.ts';

/** The AI tab's state for `type`; `generate()` asks for a draft of the prompt. */
export function useAiDraft(type: ContentType, fill: (change: (draft: ContentDraft) => ContentDraft) => void) {
  const [prompt, setPrompt] = useState('');
  const [generating, setGenerating] = useState(false);
  const [generated, setGenerated] = useState(false);
  const [aiError, setAiError] = useState('');

  async function generate() {
    setGenerating(true);
    setAiError('');
    const result = await generateDraft(type, prompt);
    setGenerating(false);
    if (!result.ok) {
      setAiError(
        result.kind === 'error' || result.kind === 'not-found' ? result.message : 'You cannot draft with AI. Please sign in as an editor.',
      );
      return;
    }
    fill((d) => withGenerated(type, d, result.data.content));
    setGenerated(true);
  }

  return { prompt, setPrompt, generating, generated, error: aiError, generate };
}

export type AiDraft = ReturnType<typeof useAiDraft>;
