/**
 * The gated body island of an article (spec point 2 "Blog": the body is gated) and of a newsletter
 * issue in the web archive: loading, then the gate card (visitors, or members below the level) or
 * the whole body as the server rendered and sanitised it, or an error with Retry. The public
 * preview, rendered into the page for everyone, is hidden while the whole body (which starts with
 * it) shows, so it never reads twice. Under an article's body, once it shows, come the members'
 * comments (their own chunk, loaded then: whoever reads the body reads and writes its comments).
 */
import { lazy, Suspense, useEffect } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { fetchArticleBody, fetchIssueBody } from '../../../lib/browser/api.ts';
import { GateCard } from './GateCard.tsx';
import { LoadFailure, LoadingLines } from './LoadStates.tsx';
import { useGatedResource } from './use-gated-resource.ts';
import '../detail/prose.css';

const Comments = lazy(() => import('../../community/Comments.tsx'));

/** What the body belongs to: where it is fetched, and how the gate and the loading line name it. */
const KINDS = {
  article: { load: (slug: string, signal: AbortSignal) => fetchArticleBody(slug, signal) },
  issue: { load: (slug: string, signal: AbortSignal) => fetchIssueBody(slug, signal) },
} as const;

export interface ArticleBodyProps {
  slug: string;
  accessLevel: AccessLevel;
  /** An article's (the default) or a newsletter issue's. */
  kind?: keyof typeof KINDS;
  /** Id of the element holding the public preview, when there is one. */
  previewId?: string;
}

export default function ArticleBody({ slug, accessLevel, kind = 'article', previewId }: ArticleBodyProps) {
  const { state, retry } = useGatedResource({ required: accessLevel, resourceKey: slug, load: KINDS[kind].load });
  const showingBody = state.status === 'ready';

  useEffect(() => {
    const preview = previewId ? document.getElementById(previewId) : null;
    if (preview) preview.hidden = showingBody;
  }, [previewId, showingBody]);

  switch (state.status) {
    case 'ready':
      return (
        <>
          <div className="prose-body" data-testid={`${kind}-body`} dangerouslySetInnerHTML={{ __html: state.data.html }} />
          {kind === 'article' && (
            <Suspense fallback={null}>
              <Comments where={{ type: 'blog', slug }} />
            </Suspense>
          )}
        </>
      );
    case 'gate':
      return <GateCard level={accessLevel} what={kind} signedIn={state.signedIn} />;
    case 'error':
    case 'not-found':
      return <LoadFailure message={state.message} onRetry={state.status === 'error' ? retry : undefined} />;
    default:
      return <LoadingLines label={`Loading the ${kind}…`} />;
  }
}
