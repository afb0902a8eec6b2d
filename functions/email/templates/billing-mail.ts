/**
 * The billing mails, in the member's language: one per change of the member's plan, and the receipt
 * and refund of a one-time purchase. Each is a heading, one paragraph and a button.
 */
import { html } from './html.ts';
import type { MailLanguage } from './account-copy.ts';
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
  TRIAL_ENDING,
  UPGRADED,
  type BillingCopy,
  type PlanMailData,
  type PurchaseMailData,
  type RefundMailData,
} from './billing-copy.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';

/** The billing templates, by name. */
export const billingTemplates = {
  // Billing mails, in the member's language: sent once per change of the member's plan.
  'billing-activated': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, ACTIVATED, '/account'),
  'billing-cancel-scheduled': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, CANCEL_SCHEDULED, '/account'),
  'billing-payment-failed': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, PAYMENT_FAILED, '/account'),
  'billing-ended': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, ENDED, '/pricing'),
  'billing-upgraded': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, UPGRADED, '/account'),
  'billing-change-scheduled': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, CHANGE_SCHEDULED, '/account'),
  'billing-trial-ending': (d: PlanMailData, { siteUrl }: TemplateContext) => planMail(siteUrl, d, TRIAL_ENDING, '/account'),
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
