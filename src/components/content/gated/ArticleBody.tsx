/**
 * The article body island (spec point 2 "Blog": the body is gated): loading, then the gate card
 * (visitors, or members below the level) or the whole body as the server rendered and sanitised it,
 * or an error with Retry. The public preview, rendered into the page for everyone, is hidden while
 * the whole body (which starts with it) shows, so it never reads twice.
 */
import { useEffect } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { fetchArticleBody } from '../../../lib/browser/api.ts';
import { GateCard } from './GateCard.tsx';
import { LoadFailure, LoadingLines } from './LoadStates.tsx';
import { useGatedResource } from './use-gated-resource.ts';

export interface ArticleBodyProps {
  slug: string;
  accessLevel: AccessLevel;
  /** Id of the element holding the public preview, when the article has one. */
  previewId?: string;
}

const loadBody = (slug: string, signal: AbortSignal) => fetchArticleBody(slug, signal);

export default function ArticleBody({ slug, accessLevel, previewId }: ArticleBodyProps) {
  const { state, retry } = useGatedResource({ required: accessLevel, resourceKey: slug, load: loadBody });
  const showingBody = state.status === 'ready';

  useEffect(() => {
    const preview = previewId ? document.getElementById(previewId) : null;
    if (preview) preview.hidden = showingBody;
  }, [previewId, showingBody]);

  switch (state.status) {
    case 'ready':
      return <div className="prose-body" data-testid="article-body" dangerouslySetInnerHTML={{ __html: state.data.html }} />;
    case 'gate':
      return <GateCard level={accessLevel} what="article" signedIn={state.signedIn} />;
    case 'error':
    case 'not-found':
      return <LoadFailure message={state.message} onRetry={state.status === 'error' ? retry : undefined} />;
    default:
      return <LoadingLines label="Loading the article…" />;
  }
}
