/**
 * A newsletter issue's copy. The newsletter domain cuts the content at the recipient's level before
 * it gets here (functions/newsletter/issues/mail.ts), so this template only lays it out: the subject and the
 * preview text escaped like every value (HTML in them shows as text), the hidden preheader, the
 * content (sanitised HTML the server rendered), the upgrade call to action of a copy cut below the
 * issue's level, a link to the issue on the web, the sender footer with a visible unsubscribe link,
 * and the one-click List-Unsubscribe headers (RFC 2369, RFC 8058). No tracking pixel, no rewritten links.
 */
import { html, safe } from './html.ts';
import { button, layout, textLayout } from './layout.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';
import { listHeaders, type NewsletterLinks } from './site-mail.ts';

/** What a copy below the issue's level offers instead of the gated part. */
export interface IssueCallToAction {
  /** Why the copy stops here. */
  text: string;
  label: string;
  url: string;
}

export interface IssueMailData extends NewsletterLinks {
  subject: string;
  previewText: string;
  /** The content as sanitised HTML (rendered and sanitised by the server's one body renderer). */
  contentHtml: string;
  /** The same content as plain text. */
  contentText: string;
  /** Present on a copy cut below the issue's level. */
  cta?: IssueCallToAction;
  /** The issue's page in the web archive. */
  webUrl: string;
}

const HEADING = 'font-size:24px;line-height:1.3;margin:0 0 20px';
const NOTE = 'margin:24px 0 0;padding:16px 20px;border-radius:8px;background:#eef2ff;color:#1e293b';
const MUTED = 'margin:24px 0 0;color:#64748b;font-size:14px';

function issueCopy(d: IssueMailData, { siteUrl }: TemplateContext): RenderedEmail {
  const cta = d.cta ? html`<div style="${NOTE}"><p style="margin:0">${d.cta.text}</p>${button(d.cta.url, d.cta.label)}</div>` : '';
  const text = [
    d.subject,
    d.contentText,
    ...(d.cta ? [`${d.cta.text}\n${d.cta.label}: ${d.cta.url}`] : []),
    `Read this issue on the web: ${d.webUrl}`,
  ].join('\n\n');
  return {
    subject: d.subject,
    html: layout({
      siteUrl,
      preheader: d.previewText,
      unsubscribeUrl: d.unsubscribeUrl,
      content: html`<h1 style="${HEADING}">${d.subject}</h1>
<div>${safe(d.contentHtml)}</div>
${cta}
<p style="${MUTED}"><a href="${d.webUrl}" style="color:#64748b">Read this issue on the web</a></p>`,
    }),
    text: textLayout(text, d.unsubscribeUrl),
    headers: listHeaders(d.oneClickUrl),
  };
}

/** The newsletter's templates, by name. */
export const newsletterTemplates = {
  'newsletter-issue': issueCopy,
};
