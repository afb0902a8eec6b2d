/**
 * The grants ledger's mails, in the member's language: a comp or a gift ends in three days, and it
 * has ended (payments/grants/sweep.ts). Subscriptions and trials have billing's own mails.
 */
import { describeGrant, grantDate, levelName, type GrantLanguage, type GrantView } from '#shared/payments/grants.ts';
import { html } from './html.ts';
import { button, layout, textLayout } from './layout.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';

export interface AccessMailData {
  language?: GrantLanguage;
  grant: GrantView;
}

interface Copy {
  subject: (level: string, date: string) => string;
  heading: string;
  body: (grant: string, level: string, date: string) => string;
  action: string;
}

const ENDING: Record<GrantLanguage, Copy> = {
  en: {
    subject: (level, date) => `Your ${level} access ends on ${date}`,
    heading: 'Your access ends soon',
    body: (grant, level, date) => `${grant}. After ${date} you no longer read at the ${level} level unless you choose a plan.`,
    action: 'See plans',
  },
  es: {
    subject: (level, date) => `Tu acceso ${level} termina el ${date}`,
    heading: 'Tu acceso termina pronto',
    body: (grant, level, date) => `${grant}. Después del ${date} ya no tendrás el nivel ${level}, salvo que elijas un plan.`,
    action: 'Ver planes',
  },
  fr: {
    subject: (level, date) => `Votre accès ${level} se termine le ${date}`,
    heading: 'Votre accès se termine bientôt',
    body: (grant, level, date) => `${grant}. Après le ${date}, vous n’aurez plus le niveau ${level}, sauf si vous choisissez une formule.`,
    action: 'Voir les formules',
  },
};

const ENDED: Record<GrantLanguage, Copy> = {
  en: {
    subject: (level) => `Your ${level} access has ended`,
    heading: 'Your access has ended',
    body: (grant, level) => `${grant}. Choose a plan to keep everything the ${level} level opens.`,
    action: 'See plans',
  },
  es: {
    subject: (level) => `Tu acceso ${level} ha terminado`,
    heading: 'Tu acceso ha terminado',
    body: (grant, level) => `${grant}. Elige un plan para conservar todo lo que abre el nivel ${level}.`,
    action: 'Ver planes',
  },
  fr: {
    subject: (level) => `Votre accès ${level} est terminé`,
    heading: 'Votre accès est terminé',
    body: (grant, level) => `${grant}. Choisissez une formule pour garder tout ce qu’ouvre le niveau ${level}.`,
    action: 'Voir les formules',
  },
};

function accessMail(copies: Record<GrantLanguage, Copy>, d: AccessMailData, siteUrl: string): RenderedEmail {
  const lang = d.language ?? 'en';
  const c = copies[lang];
  const level = levelName(d.grant.accessLevel, lang);
  const date = d.grant.endsAt ? grantDate(d.grant.endsAt, lang) : '';
  const body = c.body(describeGrant(d.grant, lang, new Date(d.grant.startsAt)), level, date);
  const url = `${siteUrl}/pricing`;
  return {
    subject: c.subject(level, date),
    html: layout({
      siteUrl,
      lang,
      preheader: body,
      content: html`<h1 style="font-size:22px;margin:0 0 16px">${c.heading}</h1>
<p style="margin:0 0 16px">${body}</p>
${button(url, c.action)}`,
    }),
    text: textLayout(`${c.heading}\n\n${body}\n\n${c.action}: ${url}`),
  };
}

export const accessTemplates = {
  'access-ending': (d: AccessMailData, { siteUrl }: TemplateContext) => accessMail(ENDING, d, siteUrl),
  'access-ended': (d: AccessMailData, { siteUrl }: TemplateContext) => accessMail(ENDED, d, siteUrl),
};
