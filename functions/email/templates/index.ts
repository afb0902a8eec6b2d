/**
 * Every message the product sends, with its copy. Each template turns typed data into a subject,
 * an HTML part (inside the shared layout) and a text part. Later issues add their messages here
 * (account confirmation, password recovery, payment receipt, cancellation) in the same shape.
 *
 * The templates live by audience: `site-mail.ts` (newsletter, contact form, lead downloads),
 * `account-mail.ts` (account and auth mails), `billing-mail.ts` (plan changes and purchases), `access-mail.ts` (a comp or gift ending), `gift-mail.ts` (a gift received, a gift's receipt),
 * `newsletter-mail.ts` (an issue's copies), `event-mail.ts` (event registrations, reminders and
 * cancellations), `community-mail.ts` (a community thread's new replies) and `support-mail.ts` (the
 * support desk's notice to staff and replies to members);
 * this file joins them into the one table the outbox renders from.
 */
import { accessTemplates } from './access-mail.ts';
import { accountTemplates } from './account-mail.ts';
import { billingTemplates } from './billing-mail.ts';
import { communityTemplates } from './community-mail.ts';
import { eventTemplates } from './event-mail.ts';
import { giftTemplates } from './gift-mail.ts';
import { newsletterTemplates } from './newsletter-mail.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';
import { siteTemplates } from './site-mail.ts';
import { supportTemplates } from './support-mail.ts';

const templates = {
  ...siteTemplates,
  ...accountTemplates,
  ...billingTemplates,
  ...accessTemplates,
  ...giftTemplates,
  ...eventTemplates,
  ...newsletterTemplates,
  ...communityTemplates,
  ...supportTemplates,
};

export type TemplateName = keyof typeof templates;
export type TemplateData<N extends TemplateName> = Parameters<(typeof templates)[N]>[0];
export const TEMPLATE_NAMES = Object.keys(templates) as TemplateName[];

/** Renders a template with its data. */
export function renderEmail<N extends TemplateName>(name: N, data: TemplateData<N>, context: TemplateContext): RenderedEmail {
  return (templates[name] as (d: TemplateData<N>, c: TemplateContext) => RenderedEmail)(data, context);
}
