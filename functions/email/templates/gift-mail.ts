/**
 * Gift mails (issue 34): the recipient's, sent at the buyer's delivery date with the message and the
 * redeem link (in English: we know nothing of the recipient's language), and the buyer's receipt in
 * their language. The buyer's message is plain text, escaped like everything else here.
 */
import { SITE } from '#shared/site.ts';
import type { MailLanguage } from './account-copy.ts';
import { longDate, money, TEST_MODE } from './billing-copy.ts';
import { html } from './html.ts';
import { button, layout, textLayout } from './layout.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';

export interface GiftReceivedData {
  from: string;
  recipientName: string | null;
  /** "Premium, 3 months". */
  what: string;
  message: string | null;
  url: string;
  expiresAt: string;
}

export interface GiftPurchasedData {
  language?: MailLanguage;
  what: string;
  /** Cents. */
  amount: number;
  recipient: string;
  deliverAt: string;
  url: string;
  testMode?: boolean;
}

const RECEIPT: Record<
  MailLanguage,
  {
    subject: (what: string) => string;
    heading: string;
    body: (d: GiftPurchasedData, price: string, date: string) => string;
    action: string;
  }
> = {
  en: {
    subject: (what) => `Your gift of ${SITE.name} ${what}`,
    heading: 'Thank you for your gift',
    body: (d, price, date) =>
      `You paid ${price} for ${d.what} for ${d.recipient}. We will mail them the gift and your message on ${date}. You can follow it from your account.`,
    action: 'Go to my account',
  },
  es: {
    subject: (what) => `Tu regalo de ${SITE.name}: ${what}`,
    heading: 'Gracias por tu regalo',
    body: (d, price, date) =>
      `Has pagado ${price} por ${d.what} para ${d.recipient}. Le enviaremos el regalo y tu mensaje el ${date}. Puedes seguirlo desde tu cuenta.`,
    action: 'Ir a mi cuenta',
  },
  fr: {
    subject: (what) => `Votre cadeau ${SITE.name} : ${what}`,
    heading: 'Merci pour votre cadeau',
    body: (d, price, date) =>
      `Vous avez payé ${price} pour ${d.what} pour ${d.recipient}. Nous lui enverrons le cadeau et votre message le ${date}. Vous pouvez le suivre depuis votre compte.`,
    action: 'Aller à mon compte',
  },
};

export const giftTemplates = {
  'gift-received': (d: GiftReceivedData, { siteUrl }: TemplateContext): RenderedEmail => {
    const greeting = d.recipientName ? `Hello ${d.recipientName},` : 'Hello,';
    const body = `${d.from} has given you ${d.what} of ${SITE.name}: every article, course and resource of that membership. Redeem it by ${longDate(d.expiresAt, 'en')}.`;
    return {
      subject: `${d.from} sent you a gift: ${SITE.name} ${d.what}`,
      html: layout({
        siteUrl,
        preheader: body,
        content: html`<h1 style="font-size:22px;margin:0 0 16px">You have a gift</h1>
<p style="margin:0 0 16px">${greeting}</p>
<p style="margin:0 0 16px">${body}</p>
${d.message ? html`<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #2453e6;background:#f8fafc;white-space:pre-line">${d.message}</blockquote>` : ''}
${button(d.url, 'Redeem your gift')}`,
      }),
      text: textLayout(`You have a gift\n\n${greeting}\n\n${body}\n\n${d.message ? `"${d.message}"\n\n` : ''}Redeem your gift: ${d.url}`),
    };
  },
  'gift-purchased': (d: GiftPurchasedData, { siteUrl }: TemplateContext): RenderedEmail => {
    const lang = d.language ?? 'en';
    const c = RECEIPT[lang];
    const test = d.testMode ? TEST_MODE[lang] : undefined;
    const body = c.body(d, money(d.amount, lang), longDate(d.deliverAt, lang));
    return {
      subject: test ? `${test.subject} ${c.subject(d.what)}` : c.subject(d.what),
      html: layout({
        siteUrl,
        lang,
        preheader: body,
        content: html`${test ? html`<p style="margin:0 0 16px;padding:10px 14px;border:2px solid #f59e0b;background:#fef3c7;color:#78350f;font-weight:bold">${test.note}</p>\n` : ''}<h1 style="font-size:22px;margin:0 0 16px">${c.heading}</h1>
<p style="margin:0 0 16px">${body}</p>
${button(d.url, c.action)}`,
      }),
      text: textLayout(`${test ? `${test.note}\n\n` : ''}${c.heading}\n\n${body}\n\n${c.action}: ${d.url}`),
    };
  },
};
