/**
 * The one email layout: brand header, content, footer with the address and (for list mail) the
 * unsubscribe link. Table-based with inline styles, as mail clients need. Header and footer rows
 * are marked `data-mail-chrome`, so the admin dashboard's preview shows each message's own text.
 */
import { SITE } from '#shared/site.ts';
import { html, type SafeHtml } from './html.ts';

export interface LayoutInput {
  siteUrl: string;
  /** Language of the message (the member's choice for account mails). */
  lang?: string;
  /** Hidden preview line shown by inboxes next to the subject. */
  preheader: string;
  content: SafeHtml;
  unsubscribeUrl?: string;
}

const BUTTON =
  'display:inline-block;background:#2453e6;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:8px';

/** A call-to-action button. */
export const button = (href: string, label: string) => html`<p style="margin:24px 0"><a href="${href}" style="${BUTTON}">${label}</a></p>`;

export function layout({ siteUrl, preheader, content, unsubscribeUrl, lang = 'en' }: LayoutInput): string {
  return html`<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${SITE.name}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:Helvetica,Arial,sans-serif;color:#0f172a">
<span style="display:none;max-height:0;overflow:hidden">${preheader}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:12px;overflow:hidden">
<tr data-mail-chrome><td style="background:#0f1d4d;padding:20px 32px">
<a href="${siteUrl}" style="color:#ffffff;text-decoration:none;font-weight:700;font-size:18px">
<span style="display:inline-block;background:#2453e6;border-radius:6px;padding:4px 8px;margin-right:8px">${SITE.abbreviation}</span>${SITE.name}</a>
</td></tr>
<tr><td style="padding:32px;font-size:16px;line-height:1.6">${content}</td></tr>
<tr data-mail-chrome><td style="padding:20px 32px;background:#f8fafc;color:#64748b;font-size:12px;line-height:1.5">
${SITE.name} · ${SITE.location} · <a href="mailto:${SITE.email}" style="color:#64748b">${SITE.email}</a><br>
${unsubscribeUrl ? html`You receive this because you signed up at <a href="${siteUrl}" style="color:#64748b">${siteUrl.replace(/^https?:\/\//, '')}</a>. <a href="${unsubscribeUrl}" style="color:#64748b">Unsubscribe</a>.` : ''}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`.__html;
}

/** The plain-text part: content text plus the same footer. */
export function textLayout(text: string, unsubscribeUrl?: string): string {
  const footer = [`${SITE.name} · ${SITE.location} · ${SITE.email}`];
  if (unsubscribeUrl) footer.push(`Unsubscribe: ${unsubscribeUrl}`);
  return `${text.trim()}\n\n--\n${footer.join('\n')}\n`;
}
