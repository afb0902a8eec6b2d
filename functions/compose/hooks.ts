/**
 * The composition's hooks: the cross-service `connect` calls (services that call each other are
 * connected once every one exists) and the personal-data registrations through which a member's
 * export and deletion reach every domain keeping their data.
 */
import { deleteHostedAccount, hostedAccount } from '../auth/hosted.ts';
import type { AuthService } from '../auth/service.ts';
import { createCommunityStore } from '../community/store.ts';
import type { Config } from '../config.ts';
import type { GatedContent } from '../content/gated/service.ts';
import { createProgressStore } from '../content/progress/store.ts';
import type { ContentService } from '../content/service.ts';
import { createContactStore } from '../contact/store.ts';
import type { EmailService } from '../email/service.ts';
import { createEventChanges } from '../events/changes.ts';
import { createEventStore } from '../events/store.ts';
import { createLeadStore } from '../leads/store.ts';
import { createMemberStore } from '../members/store.ts';
import { createIssueStore } from '../newsletter/issues/store.ts';
import type { NewsletterService } from '../newsletter/service.ts';
import { createNewsletterStore } from '../newsletter/store.ts';
import type { OutboundService } from '../outbound/service.ts';
import { createGiftStore } from '../payments/gifts/store.ts';
import { createGrantStore } from '../payments/grants/store.ts';
import { createOfferStore } from '../payments/offers/store.ts';
import type { BillingService } from '../payments/service.ts';
import { createPaymentStore } from '../payments/store.ts';
import { createIdempotencyStore } from '../platform/idempotency/store.ts';
import type { SupportService } from '../support/service.ts';
import type { UserService } from '../users/service.ts';

/** The services that call each other. */
export interface ConnectDeps {
  config: Config;
  auth: AuthService;
  users: UserService;
  billing: BillingService;
  outbox: EmailService;
  newsletter: NewsletterService;
  gated: GatedContent;
  content: ContentService;
}

/** Connects the cross-service hooks, once every service exists (nothing calls them before start-up ends). */
export function connectServices({ config, auth, users, billing, outbox, newsletter, gated, content }: ConnectDeps): void {
  const { hosted } = config.auth;
  auth.connect({
    onUserCreated: (tx, user) => users.createProfile(tx, user.id, user.email, user.verified, user.name, user.signup),
    languageFor: (tx, userId) => users.languageOf(tx, userId),
    onEmailChanged: (tx, userId, email) => users.changeEmail(tx, userId, email),
  });
  users.connect({
    lookupAccount: hosted ? (id, token) => hostedAccount(hosted, id, token) : (id) => auth.account(id),
    deleteAccount: hosted ? (id) => deleteHostedAccount(hosted, id) : (id) => auth.deleteUser(id),
    beforeDelete: (id) => billing.cancelAll(id),
    compTo: (tx, profile, level, actorId, note) => billing.access.comps.compTo(tx, profile, level, actorId, note),
    deriveLevel: (tx, profile, actorId) => billing.access.ledger.recompute(tx, profile, { actorId, action: 'access_level.set' }),
    refreshAccess: (id) => billing.access.refresh(id),
  });
  // Bounces and complaints the mail provider reports: no later newsletter issue goes to the address.
  outbox.connect({ onReport: (tx, report) => newsletter.suppress(tx, report) });
  // Purchases open items whatever the level.
  gated.connect({ owns: (userId, type, slug) => billing.owns(userId, type, slug) });
  // Staff's writes to an event, in their transaction: no removal while members hold seats; a move mails them.
  content.connect({ onWrite: createEventChanges({ outbox, siteUrl: config.siteUrl }) });
}

/** The domains whose personal-data hooks live on a service rather than a store. */
export interface PersonalDataDeps {
  users: UserService;
  support: SupportService;
  webhooks: OutboundService;
}

/** Registers each domain keeping a member's data, in the export's order. */
export function registerPersonalData({ users, support, webhooks }: PersonalDataDeps): void {
  // A member's export and deletion ask each domain keeping their data, in the export's order.
  users.personalData.register(createNewsletterStore, createLeadStore, createContactStore, createProgressStore, (tx) => ({
    personalData: async ({ id }) => ({
      billing: {
        ...(await createPaymentStore(tx).personalData(id)),
        grants: await createGrantStore(tx).personalData(id),
        offerRedemptions: await createOfferStore(tx).personalData(id),
        giftsBought: await createGiftStore(tx).boughtBy(id),
      },
    }),
    // Subscriptions, purchases, grants and offer redemptions reference the profile `on delete cascade`: they go with it.
    // Gifts they bought stay the recipients' (paid for), without the buyer's name.
    erase: async ({ id }) => {
      await createGiftStore(tx).forgetBuyer(id);
    },
  }));
  // The copies of newsletter issues sent to the member (suppressed addresses stay: see issues/store.ts).
  users.personalData.register(createIssueStore);
  // Event registrations (the profile's foreign key would take them too).
  users.personalData.register(createEventStore);
  // Community threads, posts, likes and reports; erasing deletes the posts so threads read "deleted member".
  users.personalData.register(createCommunityStore);
  // Support requests and their messages (not internal notes); deleting them removes their attachments from storage.
  users.personalData.register(support.personalData);
  // Webhook deliveries about the member: finished ones go with the account (queued ones, their deletion's event among them, still go out).
  users.personalData.register(webhooks.personalData);
  // The labels staff put on the member (members/store.ts).
  users.personalData.register(createMemberStore);
  // Answers kept for the member's Idempotency-Keys go with the account (a day's copies of answers the export has).
  users.personalData.register((tx) => ({
    personalData: async () => ({}),
    erase: ({ id }) => createIdempotencyStore(tx).eraseScope(id),
  }));
}
