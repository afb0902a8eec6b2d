/** Newsletter link problems and their messages, shared by the API and the result pages. */
export type LinkProblem = 'expired' | 'invalid' | 'stale';

export const LINK_MESSAGES: Record<LinkProblem, string> = {
  expired: 'This confirmation link has expired. Please subscribe again to get a new one.',
  invalid: 'This link is not valid. Please use the link from your latest email.',
  stale: 'This confirmation link is no longer valid. Please subscribe again.',
};

/** The message for a problem code carried in a result page's query (never free text). */
function linkProblemMessage(code: string | null | undefined): string | undefined {
  return code && Object.hasOwn(LINK_MESSAGES, code) ? LINK_MESSAGES[code as LinkProblem] : undefined;
}

const INCOMPLETE = 'This link is incomplete. Please use the link from your latest email.';

/**
 * What a confirmation or unsubscribe page shows for its address: the token to POST, or the problem
 * to explain (an `error` code from a failed POST, or a token that cannot be one of ours).
 */
export function linkPageState(url: URL): { token: string; problem?: string } {
  const token = url.searchParams.get('token') ?? '';
  const problem = linkProblemMessage(url.searchParams.get('error')) ?? (/^[\w.-]{20,2048}$/.test(token) ? undefined : INCOMPLETE);
  return problem ? { token, problem } : { token };
}
