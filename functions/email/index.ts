/**
 * The email domain's front door: the one module other domains import from it (lint refuses a
 * path into its other files). The composition root (functions/*.ts) builds it from its files.
 */
// The front door (issue 37): what other domains import from this one.
export type { DeliveryReport, EmailService, MailTally } from './service.ts';
export type { EmailAttachment } from './tables.ts';
export type { MailLanguage } from './templates/account-copy.ts';
export type { ReplyExcerpt } from './templates/community-mail.ts';
export { escapeHtml } from './templates/html.ts';
export { renderEmail } from './templates/index.ts';
export type { IssueCallToAction } from './templates/newsletter-mail.ts';
export type { RenderedEmail } from './templates/rendered.ts';
