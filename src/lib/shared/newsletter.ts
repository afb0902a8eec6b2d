/**
 * The newsletter's shared rules: link problems and their messages (the API and the result pages), who
 * gets the members' newsletter by default, the issue editor's lists and limits (the API's schema and
 * the Newsletter tab), and the archive's shapes (the server and the pages).
 */
import { ACCESS_LEVELS, type AccessLevel } from './access.ts';
import { MAX_BODY_CHARS } from './content/markdown.ts';

/** Who an issue goes to: confirmed list subscribers (`newsletter`) and members by level. */
export const AUDIENCES = ['newsletter', ...ACCESS_LEVELS] as const;
export type Audience = (typeof AUDIENCES)[number];
/** A saved segment of members as an audience (issue 35): `segment:<its id>`; its members who get the newsletter. */
export type SegmentAudience = `segment:${string}`;
/** What an issue goes to: the fixed audiences and staff's segments. */
export type IssueAudience = Audience | SegmentAudience;
export const SEGMENT_AUDIENCE = /^segment:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The most segments one issue may go to. */
export const MAX_SEGMENT_AUDIENCES = 5;
export const isSegmentAudience = (a: string): a is SegmentAudience => SEGMENT_AUDIENCE.test(a);

/** Who a copy can be cut for (previews and test copies): a list subscriber without an account (`visitor`), or a level. */
export const PREVIEW_LEVELS = ['visitor', ...ACCESS_LEVELS] as const;
export type PreviewLevel = (typeof PREVIEW_LEVELS)[number];

/** The longest subject, preview text and body of an issue (characters). */
export const ISSUE_LIMITS = { subject: 200, previewText: 300, body: MAX_BODY_CHARS } as const;

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

/**
 * The levels whose plan includes the members' newsletter (spec point 6, "What each level grants":
 * subscriber "a monthly newsletter", and premium, which adds to it). Free members get it only when
 * they ask for it (the account page) or subscribe through the public form.
 */
export function newsletterIncluded(level: AccessLevel): boolean {
  return level === 'subscriber' || level === 'premium';
}

/** Whether a member gets the newsletter: their own choice, or (never chosen) what their level includes. */
export function receivesNewsletter(member: { newsletter: boolean | null; accessLevel: AccessLevel }): boolean {
  return member.newsletter ?? newsletterIncluded(member.accessLevel);
}

/** A sent issue as the public archive lists it (`/newsletter`, its RSS and the sitemap): metadata only. */
export interface ArchivedIssue {
  slug: string;
  subject: string;
  previewText: string;
  accessLevel: AccessLevel;
  /** When the issue went out (ISO 8601). */
  sentAt: string;
}

/** One archived issue's page: its metadata and the public part (before the preview marker) as sanitised HTML. */
export interface ArchivedIssuePage extends ArchivedIssue {
  /** The part above the author's `<!-- preview -->` line; empty when the issue has none (then it is all gated). */
  publicHtml: string;
  /** Whether anything lies behind the gate (the whole body for an issue without a preview line). */
  gated: boolean;
}

/** What pages read of the archive on the server (`serverContext(locals).newsletter`). */
export interface NewsletterArchiveReader {
  /** Sent issues, newest first. */
  list(): Promise<ArchivedIssue[]>;
  /** One sent issue by slug; undefined when there is none. */
  page(slug: string): Promise<ArchivedIssuePage | undefined>;
  /** The newest `limit` sent issues with their public parts (the feed). */
  latest(limit: number): Promise<ArchivedIssuePage[]>;
}
