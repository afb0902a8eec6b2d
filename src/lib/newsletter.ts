/** Newsletter link problems and their messages, shared by the API and the result pages. */
export type LinkProblem = 'expired' | 'invalid' | 'stale';

export const LINK_MESSAGES: Record<LinkProblem, string> = {
  expired: 'This confirmation link has expired. Please subscribe again to get a new one.',
  invalid: 'This link is not valid. Please use the link from your latest email.',
  stale: 'This confirmation link is no longer valid. Please subscribe again.',
};

/** The message for a problem code carried in a result page's query (never free text). */
export function linkProblemMessage(code: string | null | undefined): string | undefined {
  return code && Object.hasOwn(LINK_MESSAGES, code) ? LINK_MESSAGES[code as LinkProblem] : undefined;
}
