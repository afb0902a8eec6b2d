/**
 * A newsletter issue's gated body in the web archive, as the article body island does it: loading,
 * then the gate card (visitors, or members below the issue's level) or the whole issue as the server
 * rendered and sanitised it, or an error with Retry. The public part, rendered into the page for
 * everyone, is hidden while the whole issue (which starts with it) shows.
 */
import { useEffect } from 'react';
import type { AccessLevel } from '#shared/access.ts';
import { fetchIssueBody } from '../../lib/browser/api.ts';
import { GateCard } from '../content/gated/GateCard.tsx';
import { LoadFailure, LoadingLines } from '../content/gated/LoadStates.tsx';
import { useGatedResource } from '../content/gated/use-gated-resource.ts';

export interface IssueBodyProps {
  slug: string;
  accessLevel: AccessLevel;
  /** Id of the element holding the public part, when the issue has one. */
  previewId?: string;
}

const loadBody = (slug: string, signal: AbortSignal) => fetchIssueBody(slug, signal);

export default function IssueBody({ slug, accessLevel, previewId }: IssueBodyProps) {
  const { state, retry } = useGatedResource({ required: accessLevel, resourceKey: slug, load: loadBody });
  const showingBody = state.status === 'ready';

  useEffect(() => {
    const preview = previewId ? document.getElementById(previewId) : null;
    if (preview) preview.hidden = showingBody;
  }, [previewId, showingBody]);

  switch (state.status) {
    case 'ready':
      return <div className="prose-body" data-testid="issue-body" dangerouslySetInnerHTML={{ __html: state.data.html }} />;
    case 'gate':
      return <GateCard level={accessLevel} what="issue" signedIn={state.signedIn} />;
    case 'error':
    case 'not-found':
      return <LoadFailure message={state.message} onRetry={state.status === 'error' ? retry : undefined} />;
    default:
      return <LoadingLines label="Loading the issue…" />;
  }
}
