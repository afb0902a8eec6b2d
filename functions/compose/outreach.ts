/**
 * The composition's outreach part: what members and visitors ask of the consultancy outside the
 * content itself. Events (registrations, the join link, reminders, registrant lists), the contact
 * form, the support desk with its attachments, and lead capture for free tools.
 */
import { ATTACHMENT_MAX_BYTES } from '#shared/support/targets.ts';
import type { Config } from '../config.ts';
import { createContactService } from '../contact/service.ts';
import type { ContentService } from '../content/service.ts';
import type { EmailService } from '../email/service.ts';
import { createEventNotices } from '../events/notices.ts';
import { createRegistrantList } from '../events/registrants.ts';
import { createEventService } from '../events/service.ts';
import type { FileService } from '../files/service.ts';
import { createLeadService } from '../leads/service.ts';
import type { WebhookEmitter } from '../outbound/port.ts';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { Database } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import type { StoragePort } from '../platform/storage/index.ts';
import { createAttachments } from '../support/attachments.ts';
import { createSupportService } from '../support/service.ts';

/** What events, contact, support and leads are built on. */
export interface OutreachDeps {
  db: Database;
  config: Config;
  logger: Logger;
  content: ContentService;
  outbox: EmailService;
  limiter: RateLimitService;
  webhooks: WebhookEmitter;
  /** Signed links to the files a lead receives. */
  downloads: FileService;
  /** Support requests' attachments' own storage area. */
  supportArea: StoragePort;
}

/** Events and their notices, contact, the support desk and leads (nothing runs until `start()`). */
export function buildOutreach({ db, config, logger, content, outbox, limiter, webhooks, downloads, supportArea }: OutreachDeps) {
  const { siteUrl } = config;
  const events = createEventService({ db: db.db, content, outbox, limiter, siteUrl, webhooks });
  const eventNotices = createEventNotices({ db: db.db, content, outbox, siteUrl, logger });
  const contact = createContactService({ db: db.db, outbox, inbox: config.email.contactInbox });
  const supportAttachments = createAttachments({
    storage: supportArea,
    maxBytes: ATTACHMENT_MAX_BYTES,
    minBytesPerSecond: config.uploads.minBytesPerSecond,
  });
  // Staff hear of new support requests where contact messages arrive.
  const support = createSupportService({
    db: db.db,
    outbox,
    limiter,
    attachments: supportAttachments,
    siteUrl,
    inbox: config.email.contactInbox,
  });
  const leads = createLeadService({ db: db.db, content, outbox, downloads, siteUrl });
  return {
    /** Webinars and events: registrations, the join link, calendar files. */
    events,
    /** The events' reminders and cancellation notices (ticking once started). */
    eventNotices,
    /** Staff's list of an event's registrants. */
    eventRegistrants: createRegistrantList({ db: db.db, events }),
    contact,
    leads,
    /** The support desk: members' requests, staff's queue, replies and notes. */
    support,
    /** Support requests' attachments (their own storage area). */
    supportAttachments,
  };
}
