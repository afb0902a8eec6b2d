/**
 * The composition's newsletter part: the double opt-in list, staff's issues, the sender that mails
 * them (ticking once started) and the web archive, which the public search index also reads.
 */
import type { Config } from '../config.ts';
import type { RenderBody } from '../content/body.ts';
import type { ContentService } from '../content/service.ts';
import type { EmailService } from '../email/service.ts';
import { createMemberService } from '../members/service.ts';
import { createNewsletterArchive } from '../newsletter/archive/service.ts';
import { createIssueSender } from '../newsletter/issues/sending.ts';
import { createIssueService } from '../newsletter/issues/service.ts';
import { createNewsletterService } from '../newsletter/service.ts';
import type { WebhookEmitter } from '../outbound/port.ts';
import type { Database, DbOrTx } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import type { Tokens } from '../platform/tokens.ts';

/** What the newsletter's services are built on. */
export interface NewsletterDeps {
  db: Database;
  config: Config;
  logger: Logger;
  outbox: EmailService;
  tokens: Tokens;
  content: ContentService;
  /** The staff bodies' renderer (issues are staff bodies). */
  render: RenderBody;
  webhooks: WebhookEmitter;
}

/** The list, the archive, the issue sender and staff's issue service (nothing runs until `start()`). */
export function buildNewsletter({ db, config, logger, outbox, tokens, content, render, webhooks }: NewsletterDeps) {
  const { siteUrl } = config;
  const newsletterArchive = createNewsletterArchive({ db: db.db, render });
  const newsletter = createNewsletterService({ db: db.db, outbox, tokens, siteUrl, logger });
  const { ratePerMinute } = config.newsletter;
  // A segment audience is worked out in the send's own transaction (members/service.ts).
  const segments = (tx: DbOrTx, id: string) => createMemberService({ db: tx }).segmentMembers(id);
  const newsletterSender = createIssueSender({
    db: db.db,
    outbox,
    tokens,
    siteUrl,
    render,
    ratePerMinute,
    logger,
    segments,
    webhooks,
  });
  const newsletterIssues = createIssueService({
    db: db.db,
    outbox,
    content,
    sender: newsletterSender,
    siteUrl,
    render,
    tokens,
    segments,
  });
  return {
    newsletter,
    /** Staff's newsletter issues: drafts, previews, test copies, sending, scheduling. */
    newsletterIssues,
    /** Sends issues (one copy per recipient) and their account; ticking once started. */
    newsletterSender,
    /** The newsletter's web archive (pages and the gated body). */
    newsletterArchive,
  };
}
