/**
 * An issue's copies, cut at each recipient's level with the one access rule (`checkAccess`): at or
 * above the issue's level the whole body (the preview marker removed); below it, and for list
 * subscribers without an account, only the public part above the author's `<!-- preview -->` line
 * (the preview text when there is none) and a call to action, never the gated text: not in the
 * HTML, the text part, the subject or the headers. The body renders once per cut through the
 * server's staff renderer (`render`: Markdown, raw HTML dropped, sanitised, on the renderer's thread;
 * a body it cannot render is a 422, `BodyRenderError`); each recipient's copy is that cut with their
 * own unsubscribe token filled in, so an issue to thousands renders four times.
 */
import { randomUUID } from 'node:crypto';
import { accessLabel, checkAccess, type AccessLevel } from '#shared/access.ts';
import { splitPreview, type RenderBody } from '../../content/index.ts';
import type { IssueCallToAction } from '../../email/index.ts';
import { renderEmail } from '../../email/index.ts';
import type { RenderedEmail } from '../../email/index.ts';
import { escapeHtml } from '../../email/index.ts';

/** The level a copy is cut at: a member's (staff read at premium), or null for a list subscriber without an account. */
export type CopyLevel = AccessLevel | null;

/** What cutting needs of an issue. */
export interface IssueText {
  slug: string;
  subject: string;
  previewText: string;
  body: string;
  accessLevel: AccessLevel;
}

/** A copy's content at one level. */
export interface CutContent {
  /** Whether the copy carries the whole body. */
  whole: boolean;
  html: string;
  text: string;
  cta?: IssueCallToAction;
}

/** The path of an issue in the web archive. */
export const issuePath = (slug: string) => `/newsletter/${slug}`;

/** What a copy below the issue's level offers: an account for a free issue, a plan for a paid one. */
function callToAction(issue: IssueText, siteUrl: string): IssueCallToAction {
  if (issue.accessLevel === 'free')
    return {
      text: 'The rest of this issue is free for members.',
      label: 'Sign up free to read the rest',
      url: `${siteUrl}/signup?redirect=${encodeURIComponent(issuePath(issue.slug))}`,
    };
  return {
    text: `The rest of this issue is for ${accessLabel(issue.accessLevel)} members.`,
    label: 'Upgrade to read the rest',
    url: `${siteUrl}/pricing`,
  };
}

/** The issue's content as a recipient at `level` may read it. */
export async function cutIssue(issue: IssueText, level: CopyLevel, siteUrl: string, render: RenderBody): Promise<CutContent> {
  const { preview, body } = splitPreview(issue.body);
  if (checkAccess(level ? { accessLevel: level } : null, issue.accessLevel).allowed) {
    return { whole: true, html: await render(body, 'markdown'), text: body };
  }
  const cta = callToAction(issue, siteUrl);
  if (preview) return { whole: false, html: await render(preview, 'markdown'), text: preview, cta };
  // No public part: the preview text (public already, it is the inbox's preview line) stands in.
  const teaser = issue.previewText;
  return { whole: false, html: teaser ? `<p>${escapeHtml(teaser)}</p>` : '', text: teaser, cta };
}

/** A copy with a placeholder where each recipient's unsubscribe token goes. */
export interface CopyTemplate {
  placeholder: string;
  rendered: RenderedEmail;
}

/** What rendering a copy needs: the site's address and the staff renderer. */
export interface CopyContext {
  siteUrl: string;
  render: RenderBody;
}

/** Renders the copy of `issue` cut at `level`, with a placeholder token in its unsubscribe links. */
export async function copyTemplate(
  issue: IssueText,
  level: CopyLevel,
  { siteUrl, render }: CopyContext,
  subjectPrefix = '',
): Promise<CopyTemplate> {
  // Random per render: no text an editor writes can be mistaken for it.
  const placeholder = `unsubscribe-${randomUUID()}`;
  const cut = await cutIssue(issue, level, siteUrl, render);
  const rendered = renderEmail(
    'newsletter-issue',
    {
      subject: `${subjectPrefix}${issue.subject}`,
      previewText: issue.previewText,
      contentHtml: cut.html,
      contentText: cut.text,
      ...(cut.cta ? { cta: cut.cta } : {}),
      webUrl: `${siteUrl}${issuePath(issue.slug)}`,
      unsubscribeUrl: `${siteUrl}/newsletter/unsubscribe?token=${placeholder}`,
      oneClickUrl: `${siteUrl}/api/newsletter/unsubscribe?token=${placeholder}`,
    },
    { siteUrl },
  );
  return { placeholder, rendered };
}

/** One recipient's copy: the template with their token (JWT characters, which need no escaping anywhere). */
export function fillCopy({ placeholder, rendered }: CopyTemplate, token: string): RenderedEmail {
  const fill = (s: string) => s.replaceAll(placeholder, token);
  return {
    ...rendered,
    html: fill(rendered.html),
    text: fill(rendered.text),
    headers: Object.fromEntries(Object.entries(rendered.headers ?? {}).map(([k, v]) => [k, fill(v)])),
  };
}

/** The token a preview or test copy carries: the unsubscribe page explains it is not a working link. */
export const PREVIEW_TOKEN = 'preview';

/** Renders every part of the issue a copy can carry (the whole body and the public part): rejects with `BodyRenderError` (422) when one cannot render. */
export async function assertRenders(issue: Pick<IssueText, 'body'>, render: RenderBody): Promise<void> {
  const { preview, body } = splitPreview(issue.body);
  await render(body, 'markdown');
  if (preview) await render(preview, 'markdown');
}
