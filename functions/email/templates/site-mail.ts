/**
 * The public site's mails: the newsletter's confirmation and welcome (list mail, with one-click
 * unsubscribe headers), the contact form's notification and acknowledgement, and a lead's download.
 */
import { SITE } from '#shared/site.ts';
import { html, paragraphs } from './html.ts';
import { button, layout, textLayout } from './layout.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';

/** RFC 2369 / RFC 8058 headers that let mail clients offer a one-click unsubscribe. */
export function listHeaders(oneClickUrl: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${oneClickUrl}>, <mailto:${SITE.email}?subject=unsubscribe>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

export interface NewsletterLinks {
  /** Page with the unsubscribe button. */
  unsubscribeUrl: string;
  /** Endpoint for the one-click POST of List-Unsubscribe-Post. */
  oneClickUrl: string;
}

/** The site's templates, by name. */
export const siteTemplates = {
  'newsletter-confirm': (d: NewsletterLinks & { confirmUrl: string }, { siteUrl }: TemplateContext): RenderedEmail => ({
    subject: `Please confirm your subscription to the ${SITE.name} newsletter`,
    html: layout({
      siteUrl,
      preheader: 'One click to confirm, then practical growth ideas once a month.',
      unsubscribeUrl: d.unsubscribeUrl,
      content: html`<h1 style="font-size:22px;margin:0 0 16px">Confirm your subscription</h1>
<p style="margin:0 0 16px">Thanks for signing up for the ${SITE.name} newsletter. Once a month we send one practical idea on SEO, automation, content or analytics that you can put to work the same week.</p>
<p style="margin:0 0 16px">Please confirm that this address is yours:</p>
${button(d.confirmUrl, 'Confirm my subscription')}
<p style="margin:0;color:#64748b;font-size:14px">If you did not sign up, ignore this message: without confirmation you will not hear from us again.</p>`,
    }),
    text: textLayout(
      `Confirm your subscription\n\nThanks for signing up for the ${SITE.name} newsletter. Once a month we send one practical idea on SEO, automation, content or analytics.\n\nConfirm that this address is yours:\n${d.confirmUrl}\n\nIf you did not sign up, ignore this message: without confirmation you will not hear from us again.`,
      d.unsubscribeUrl,
    ),
    headers: listHeaders(d.oneClickUrl),
  }),

  'newsletter-welcome': (d: NewsletterLinks, { siteUrl }: TemplateContext): RenderedEmail => ({
    subject: `Welcome to the ${SITE.name} newsletter`,
    html: layout({
      siteUrl,
      preheader: 'You are in. Here is what to expect.',
      unsubscribeUrl: d.unsubscribeUrl,
      content: html`<h1 style="font-size:22px;margin:0 0 16px">You're subscribed</h1>
<p style="margin:0 0 16px">Your subscription is confirmed. Expect one email a month with a tactic we have tested with clients, the numbers behind it and the steps to copy it.</p>
<p style="margin:0 0 16px">While you wait for the first issue, our free tools are a good place to start:</p>
${button(`${siteUrl}/tools`, 'Browse the free tools')}`,
    }),
    text: textLayout(
      `You're subscribed\n\nYour subscription is confirmed. Expect one email a month with a tactic we have tested with clients, the numbers behind it and the steps to copy it.\n\nFree tools: ${siteUrl}/tools`,
      d.unsubscribeUrl,
    ),
    headers: listHeaders(d.oneClickUrl),
  }),

  'contact-notification': (
    d: { name: string; email: string; subject: string; message: string; receivedAt: string },
    { siteUrl }: TemplateContext,
  ): RenderedEmail => ({
    subject: `New enquiry: ${d.subject}`,
    replyTo: d.email,
    html: layout({
      siteUrl,
      preheader: `${d.name} wrote through the contact form.`,
      content: html`<h1 style="font-size:20px;margin:0 0 16px">New message from the contact form</h1>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:15px">
<tr><td style="padding:2px 12px 2px 0;color:#64748b">Name</td><td>${d.name}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#64748b">Email</td><td><a href="mailto:${d.email}">${d.email}</a></td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#64748b">Subject</td><td>${d.subject}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#64748b">Received</td><td>${d.receivedAt}</td></tr>
</table>
<div style="border-left:3px solid #bfd3fe;padding-left:16px">${paragraphs(d.message)}</div>
<p style="margin:16px 0 0;color:#64748b;font-size:14px">Reply to this email to answer ${d.name} directly. We promised a reply within 24 hours.</p>`,
    }),
    text: textLayout(
      `New message from the contact form\n\nName: ${d.name}\nEmail: ${d.email}\nSubject: ${d.subject}\nReceived: ${d.receivedAt}\n\n${d.message}\n\nReply to this email to answer ${d.name} directly. We promised a reply within 24 hours.`,
    ),
  }),

  /** Sent to an unverified address, so it quotes nothing the visitor typed (no relay for spam). */
  'contact-acknowledgement': (_d: Record<string, never>, { siteUrl }: TemplateContext): RenderedEmail => ({
    subject: `We received your message`,
    html: layout({
      siteUrl,
      preheader: 'Thanks for reaching out. We reply within 24 hours.',
      content: html`<h1 style="font-size:22px;margin:0 0 16px">Thanks for getting in touch</h1>
<p style="margin:0 0 16px">We received your message through the contact form on our website, and a consultant will reply within 24 hours (Monday-Friday, 9am-5pm EST).</p>
<p style="margin:0 0 16px">If you did not write to us, someone else entered this address: you can ignore this email, and we will not contact you again about it.</p>
<p style="margin:16px 0 0">Talk soon,<br>The ${SITE.name} team</p>`,
    }),
    text: textLayout(
      `Thanks for getting in touch\n\nWe received your message through the contact form on our website, and a consultant will reply within 24 hours (Monday-Friday, 9am-5pm EST).\n\nIf you did not write to us, someone else entered this address: you can ignore this email, and we will not contact you again about it.\n\nTalk soon,\nThe ${SITE.name} team`,
    ),
  }),

  /** Sent to an unverified address: only our own text and the tool's (no visitor text). */
  'lead-download': (
    d: { toolTitle: string; toolUrl: string; downloadUrl: string; validDays: number },
    { siteUrl }: TemplateContext,
  ): RenderedEmail => ({
    subject: `Your download: ${d.toolTitle}`,
    html: layout({
      siteUrl,
      preheader: `Here is your copy of ${d.toolTitle}.`,
      content: html`<h1 style="font-size:22px;margin:0 0 16px">Here you go</h1>
<p style="margin:0 0 16px">Thanks for your interest in <a href="${d.toolUrl}">${d.toolTitle}</a>. Your download link works for ${d.validDays} days:</p>
${button(d.downloadUrl, 'Download now')}
<p style="margin:0;color:#64748b;font-size:14px">Questions about putting it to work? Just reply: a consultant reads every message.</p>`,
    }),
    text: textLayout(
      `Here you go\n\nThanks for your interest in ${d.toolTitle} (${d.toolUrl}). Your download link works for ${d.validDays} days:\n${d.downloadUrl}\n\nQuestions about putting it to work? Just reply: a consultant reads every message.`,
    ),
  }),
};
