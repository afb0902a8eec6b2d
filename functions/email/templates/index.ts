/**
 * Every message the product sends, with its copy. Each template turns typed data into a subject,
 * an HTML part (inside the shared layout) and a text part. Later issues add their messages here
 * (account confirmation, password recovery, payment receipt, cancellation) in the same shape.
 */
import { SITE } from '#shared/site.ts';
import { html, paragraphs } from './html.ts';
import {
  ACCOUNT_DELETED,
  CONFIRM_SIGNUP,
  EMAIL_CHANGE,
  MAGIC_LINK,
  PASSWORD_CHANGED,
  REAUTHENTICATION,
  RECOVERY,
  SHARED,
  type LinkMailCopy,
  type MailLanguage,
} from './account-copy.ts';
import { button, layout, textLayout } from './layout.ts';
import {
  ACTIVATED,
  CANCEL_SCHEDULED,
  CHANGE_SCHEDULED,
  ENDED,
  longDate,
  money,
  PAYMENT_FAILED,
  perInterval,
  PURCHASED,
  REFUNDED,
  TEST_MODE,
  UPGRADED,
  type BillingCopy,
  type PlanMailData,
  type PurchaseMailData,
  type RefundMailData,
} from './billing-copy.ts';

export interface TemplateContext {
  siteUrl: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  replyTo?: string;
}

/** RFC 2369 / RFC 8058 headers that let mail clients offer a one-click unsubscribe. */
function listHeaders(oneClickUrl: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${oneClickUrl}>, <mailto:${SITE.email}?subject=unsubscribe>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

interface NewsletterLinks {
  /** Page with the unsubscribe button. */
  unsubscribeUrl: string;
  /** Endpoint for the one-click POST of List-Unsubscribe-Post. */
  oneClickUrl: string;
}

const templates = {
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

  /** After the member deleted their account: our words only, in their language. */
  'account-deleted': (d: { language?: MailLanguage }, { siteUrl }: TemplateContext): RenderedEmail => {
    const lang = d.language ?? 'en';
    const c = ACCOUNT_DELETED[lang];
    return {
      subject: c.subject,
      html: layout({
        siteUrl,
        lang,
        preheader: c.heading,
        content: html`<h1 style="font-size:22px;margin:0 0 16px">${c.heading}</h1>
<p style="margin:0 0 16px">${c.body}</p>
<p style="margin:0 0 16px">${c.notYou}</p>
<p style="margin:16px 0 0">${c.signOff}<br>${c.team}</p>`,
      }),
      text: textLayout(`${c.heading}\n\n${c.body}\n\n${c.notYou}\n\n${c.signOff}\n${c.team}`),
    };
  },

  // Account mails (the embedded auth service), in the member's language. Each carries the link and the 6-digit code.
  'auth-confirm-signup': (d: AuthLink, { siteUrl }: TemplateContext): RenderedEmail => authMail(siteUrl, d, CONFIRM_SIGNUP),
  'auth-recovery': (d: AuthLink, { siteUrl }: TemplateContext): RenderedEmail => authMail(siteUrl, d, RECOVERY),
  'auth-magic-link': (d: AuthLink, { siteUrl }: TemplateContext): RenderedEmail => authMail(siteUrl, d, MAGIC_LINK),
  'auth-email-change': (d: AuthLink, { siteUrl }: TemplateContext): RenderedEmail => authMail(siteUrl, d, EMAIL_CHANGE),
  /** The reauthentication code a password change asks for when the session is not fresh: a code only, no link. */
  'auth-reauthentication': (d: Omit<AuthLink, 'url'>, { siteUrl }: TemplateContext): RenderedEmail => {
    const lang = d.language ?? 'en';
    const copy = REAUTHENTICATION[lang];
    const validity = copy.validity(d.validMinutes);
    return {
      subject: copy.subject,
      html: layout({
        siteUrl,
        lang,
        preheader: copy.intro,
        content: html`<h1 style="font-size:22px;margin:0 0 16px">${copy.heading}</h1>
<p style="margin:0 0 16px">${copy.intro} <strong style="font-size:18px;letter-spacing:2px">${d.code}</strong></p>
<p style="margin:0 0 16px;color:#64748b;font-size:14px">${validity}</p>
<p style="margin:0;color:#64748b;font-size:14px">${copy.outro}</p>`,
      }),
      text: textLayout(`${copy.heading}\n\n${copy.intro} ${d.code}\n\n${validity}\n\n${copy.outro}`),
    };
  },
  /** After any password change: the owner hears of it, with the way back in if it was not them. */
  'auth-password-changed': (d: { changedAt: string; language?: MailLanguage }, { siteUrl }: TemplateContext): RenderedEmail => {
    const lang = d.language ?? 'en';
    const c = PASSWORD_CHANGED[lang];
    const when = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(new Date(d.changedAt));
    const url = `${siteUrl}/forgot-password`;
    return {
      subject: c.subject,
      html: layout({
        siteUrl,
        lang,
        preheader: c.heading,
        content: html`<h1 style="font-size:22px;margin:0 0 16px">${c.heading}</h1>
<p style="margin:0 0 16px">${c.body(when)}</p>
<p style="margin:0 0 16px">${c.notYou}</p>
${button(url, c.action)}`,
      }),
      text: textLayout(`${c.heading}\n\n${c.body(when)}\n\n${c.notYou}\n${c.action}: ${url}`),
    };
  },

  // Billing mails, in the member's language: sent once per change of the member's plan.
  'billing-activated': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, ACTIVATED, '/account'),
  'billing-cancel-scheduled': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, CANCEL_SCHEDULED, '/account'),
  'billing-payment-failed': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, PAYMENT_FAILED, '/account'),
  'billing-ended': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, ENDED, '/pricing'),
  'billing-upgraded': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, UPGRADED, '/account'),
  'billing-change-scheduled': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, CHANGE_SCHEDULED, '/account'),
  'billing-purchase': (d: PurchaseMailData, { siteUrl }: TemplateContext): RenderedEmail => {
    const lang = d.language ?? 'en';
    const c = PURCHASED[lang];
    return actionMail(siteUrl, lang, {
      subject: c.subject(d.title),
      heading: c.heading,
      body: c.body(d.title, money(d.amount, lang)),
      action: c.action,
      url: d.url,
      testMode: d.testMode,
    });
  },
  'billing-refunded': (d: RefundMailData, { siteUrl }: TemplateContext): RenderedEmail => {
    const lang = d.language ?? 'en';
    const c = REFUNDED[lang];
    return actionMail(siteUrl, lang, {
      subject: c.subject(d.title),
      heading: c.heading,
      body: (d.reason === 'already_owned' ? c.ownedBody : c.body)(d.title, money(d.amount, lang)),
      action: c.action,
      url: d.url,
      testMode: d.testMode,
    });
  },
};

function planMail(siteUrl: string, d: PlanMailData, copies: Record<MailLanguage, BillingCopy>, path: string): RenderedEmail {
  const lang = d.language ?? 'en';
  const c = copies[lang];
  const price = `${money(d.amount, lang)}/${perInterval(lang, d.interval)}`;
  const body = c.body(d, price, longDate(d.date, lang), d.charged ? money(d.charged, lang) : undefined);
  const url = `${siteUrl}${path}`;
  return actionMail(siteUrl, lang, { subject: c.subject(d), heading: c.heading, body, action: c.action, url, testMode: d.testMode });
}

/** A heading, one paragraph and a button, in the member's language; in test mode a loud line says no money moved. */
function actionMail(
  siteUrl: string,
  lang: MailLanguage,
  m: { subject: string; heading: string; body: string; action: string; url: string; testMode?: boolean | undefined },
): RenderedEmail {
  const test = m.testMode ? TEST_MODE[lang] : undefined;
  const note = test
    ? html`<p style="margin:0 0 16px;padding:10px 14px;border:2px solid #f59e0b;background:#fef3c7;color:#78350f;font-weight:bold">${test.note}</p>\n`
    : '';
  return {
    subject: test ? `${test.subject} ${m.subject}` : m.subject,
    html: layout({
      siteUrl,
      lang,
      preheader: test ? `${test.note} ${m.body}` : m.body,
      content: html`${note}<h1 style="font-size:22px;margin:0 0 16px">${m.heading}</h1>
<p style="margin:0 0 16px">${m.body}</p>
${button(m.url, m.action)}`,
    }),
    text: textLayout(`${test ? `${test.note}\n\n` : ''}${m.heading}\n\n${m.body}\n\n${m.action}: ${m.url}`),
  };
}

interface AuthLink {
  /** The verification link. */
  url: string;
  /** The 6-digit code, for typing in instead of following the link. */
  code: string;
  /** How long link and code work, in minutes. */
  validMinutes: number;
  /** The member's language (English when unknown). */
  language?: MailLanguage;
}

function authMail(siteUrl: string, d: AuthLink, copies: Record<MailLanguage, LinkMailCopy>): RenderedEmail {
  const lang = d.language ?? 'en';
  const copy = copies[lang];
  const { codeLabel, validity: validFor } = SHARED[lang];
  const validity = validFor(d.validMinutes);
  return {
    subject: copy.subject,
    html: layout({
      siteUrl,
      lang,
      preheader: copy.intro,
      content: html`<h1 style="font-size:22px;margin:0 0 16px">${copy.heading}</h1>
<p style="margin:0 0 16px">${copy.intro}</p>
${button(d.url, copy.action)}
<p style="margin:0 0 16px">${codeLabel} <strong style="font-size:18px;letter-spacing:2px">${d.code}</strong></p>
<p style="margin:0 0 16px;color:#64748b;font-size:14px">${validity}</p>
<p style="margin:0;color:#64748b;font-size:14px">${copy.outro}</p>`,
    }),
    text: textLayout(`${copy.heading}\n\n${copy.intro}\n${d.url}\n\n${codeLabel} ${d.code}\n\n${validity}\n\n${copy.outro}`),
  };
}

export type TemplateName = keyof typeof templates;
export type TemplateData<N extends TemplateName> = Parameters<(typeof templates)[N]>[0];
export const TEMPLATE_NAMES = Object.keys(templates) as TemplateName[];

/** Renders a template with its data. */
export function renderEmail<N extends TemplateName>(name: N, data: TemplateData<N>, context: TemplateContext): RenderedEmail {
  return (templates[name] as (d: TemplateData<N>, c: TemplateContext) => RenderedEmail)(data, context);
}
