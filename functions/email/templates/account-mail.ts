/**
 * The account mails, in the member's language: the farewell after an account is deleted, and the
 * embedded auth service's mails (each link mail carries the link and a 6-digit code).
 */
import { html } from './html.ts';
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
import type { RenderedEmail, TemplateContext } from './rendered.ts';

/** The account templates, by name. */
export const accountTemplates = {
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
};

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
