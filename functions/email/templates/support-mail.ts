/**
 * The support desk's mails: staff's notice that a member opened a request (to the support inbox,
 * CONTACT_INBOX, with what the member wrote: the address is ours and the member signed in), and
 * staff's reply to the member, with a link back to the conversation on /account/support. Internal
 * notes never reach a template: the service mails only replies.
 */
import { formatInZone } from '#shared/events/format.ts';
import { SUPPORT_TIME_ZONE } from '#shared/support/targets.ts';
import { html, paragraphs } from './html.ts';
import { button, layout, textLayout } from './layout.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';

/** The support desk's templates, by name. */
export const supportTemplates = {
  'support-request-opened': (
    d: { subject: string; message: string; member: string; level: string; priority: boolean; respondBy: string; url: string },
    { siteUrl }: TemplateContext,
  ): RenderedEmail => {
    const due = formatInZone(d.respondBy, SUPPORT_TIME_ZONE);
    const tag = d.priority ? '[Priority] ' : '';
    return {
      subject: `${tag}Support request: ${d.subject}`,
      html: layout({
        siteUrl,
        preheader: `${d.member} opened a support request.`,
        content: html`<h1 style="font-size:20px;margin:0 0 16px">${d.priority ? 'New Priority support request' : 'New support request'}</h1>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:15px">
<tr><td style="padding:2px 12px 2px 0;color:#64748b">From</td><td>${d.member} (${d.level})</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#64748b">Subject</td><td>${d.subject}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#64748b">First response by</td><td>${due}</td></tr>
</table>
<div style="border-left:3px solid #bfd3fe;padding-left:16px">${paragraphs(d.message)}</div>
${button(d.url, 'Open the Support tab')}
<p style="margin:0;color:#64748b;font-size:14px">Reply from the admin dashboard, so the member sees it on their account page.</p>`,
      }),
      text: textLayout(
        `${d.priority ? 'New Priority support request' : 'New support request'}\n\nFrom: ${d.member} (${d.level})\nSubject: ${d.subject}\nFirst response by: ${due}\n\n${d.message}\n\nOpen the Support tab: ${d.url}\nReply from the admin dashboard, so the member sees it on their account page.`,
      ),
    };
  },

  'support-reply': (d: { subject: string; reply: string; staff: string; url: string }, { siteUrl }: TemplateContext): RenderedEmail => ({
    subject: `Re: ${d.subject}`,
    html: layout({
      siteUrl,
      preheader: `${d.staff} replied to your support request.`,
      content: html`<h1 style="font-size:20px;margin:0 0 16px">${d.staff} replied to your request</h1>
<p style="margin:0 0 16px;color:#64748b">${d.subject}</p>
<div style="border-left:3px solid #bfd3fe;padding-left:16px">${paragraphs(d.reply)}</div>
${button(d.url, 'View the conversation')}
<p style="margin:0;color:#64748b;font-size:14px">To answer, reply on your account page: replies to this email are not read.</p>`,
    }),
    text: textLayout(
      `${d.staff} replied to your request\n\n${d.subject}\n\n${d.reply}\n\nView the conversation: ${d.url}\nTo answer, reply on your account page: replies to this email are not read.`,
    ),
  }),
};
