/** What every email template is given and what it renders: the shape the outbox sends. */

/** What a template is given besides its data. */
export interface TemplateContext {
  siteUrl: string;
}

/** A rendered message: subject, HTML and text parts, and any extra headers. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  replyTo?: string;
}
