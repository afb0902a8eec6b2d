/**
 * The composition root: opens the database and builds the services every entry point shares (the
 * Node server, the dev server integration, tests), picks each outside service's adapter once from
 * configuration, then connects the services that call each other and registers the personal-data
 * hooks. Longer than the house's file size on purpose: it is the one place that builds everything,
 * in order, a line or two a service, so the order can be read top to bottom.
 */
import { createRateLimitService } from './platform/abuse/service.ts';
import { createSigningKeys } from './auth/keys.ts';
import { createAuthService } from './auth/service.ts';
import { createAuthStore } from './auth/store.ts';
import { deleteHostedAccount, hostedAccount, hostedSessionIsLive } from './auth/hosted.ts';
import { createAccessTokenVerifier, localKeySet, remoteKeySet } from './auth/verify.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoPasswordHash } from './users/demo.ts';
import { createUserService } from './users/service.ts';
import { PROFILE_CHANNEL } from './users/store.ts';
import { createRateLimitStore } from './platform/abuse/store.ts';
import { bodyImageOrigins, type Config } from './config.ts';
import { createContactService } from './contact/service.ts';
import { createPublicContentCache } from './content/cache.ts';
import { sharedCacheControl } from './platform/http/cache-control.ts';
import { createMdxSource, type MdxSource } from './content/mdx-source.ts';
import { createContentService } from './content/service.ts';
import { createGatedContent } from './content/gated/service.ts';
import { createFeedService } from './feeds/service.ts';
import { createProgressService } from './content/progress/service.ts';
import { createEventService } from './events/service.ts';
import { createEventNotices } from './events/notices.ts';
import { createRegistrantList } from './events/registrants.ts';
import { createEventStore } from './events/store.ts';
import { createEventChanges } from './events/changes.ts';
import { CONTENT_CHANNEL } from './content/store.ts';
import { openDatabase, type Database, type DbOrTx, type OpenOptions } from './platform/db/client.ts';
import type { PgliteFiles } from './platform/db/pglite-files.ts';
import { createEmailService } from './email/service.ts';
import { EMAIL_CHANNEL } from './email/store.ts';
import { pickMailTransport, type MailTransport } from './platform/mail/index.ts';
import { createEmailWorker, type WorkerOptions } from './email/worker.ts';
import { createFileService } from './files/service.ts';
import { createLeadService } from './leads/service.ts';
import type { Logger } from './platform/logger.ts';
import { createTokens } from './platform/tokens.ts';
import { createNewsletterService } from './newsletter/service.ts';
import { createIssueSender } from './newsletter/issues/sending.ts';
import { createIssueService } from './newsletter/issues/service.ts';
import { createNewsletterArchive } from './newsletter/archive/service.ts';
import { closePagefind, createPublicSearchIndex } from './search/index.ts';
import { createIssueStore } from './newsletter/issues/store.ts';
import { createWebhookInbox } from './platform/webhooks/index.ts';
import { pickPaymentProvider } from './payments/index.ts';
import { pickDrafter } from './ai/index.ts';
import { catalogueFrom } from './ai/offline.ts';
import { createBillingService } from './payments/service.ts';
import { createAdminService } from './admin/service.ts';
import { createMembers } from './members/index.ts';
import { createMemberService } from './members/service.ts';
import { createMemberStore } from './members/store.ts';
import { createAnalyticsService } from './analytics/service.ts';
import { loadSigningSecret } from './platform/secrets/service.ts';
import { createSecretStore } from './platform/secrets/store.ts';
import { createDirectUploads } from './uploads/direct.ts';
import { MEDIA_PATH, pickStorage } from './platform/storage/index.ts';
import { createUploadStore } from './uploads/store.ts';
import { createUploadService } from './uploads/service.ts';
import { createNewsletterStore } from './newsletter/store.ts';
import { createLeadStore } from './leads/store.ts';
import { createContactStore } from './contact/store.ts';
import { createProgressStore } from './content/progress/store.ts';
import { createPaymentStore } from './payments/store.ts';
import { createCommunityAccess } from './community/access.ts';
import { readContentIndex } from './content/content-index.ts';
import { seedDemoCommunity } from './community/demo.ts';
import { seedDemoNewsletter } from './newsletter/demo.ts';
import { createCommunityService } from './community/service.ts';
import { createMemberRenderer, createStaffRenderer, type BodyRendererOptions } from './content/body-renderer.ts';
import type { RenderBody } from './content/body.ts';
import { createCommunityPageReader } from './community/pages.ts';
import { COMMUNITY_CHANNEL, createCommunityStore } from './community/store.ts';
import { createCategoryAdmin } from './community/moderation/categories.ts';
import { createModerationService } from './community/moderation/service.ts';
import { createNotificationService } from './community/notifications/service.ts';
import { ATTACHMENT_MAX_BYTES } from '#shared/support/targets.ts';
import { createAttachments } from './support/attachments.ts';
import { createSupportService } from './support/service.ts';
import { createIdempotencyLedger } from './platform/idempotency/ledger.ts';
import { createIdempotencyStore } from './platform/idempotency/store.ts';
import { pruneChanges } from './platform/changes/store.ts';
import { createGrantStore } from './payments/grants/store.ts';
import { createOfferStore } from './payments/offers/store.ts';
import { createGiftStore } from './payments/gifts/store.ts';
import { createOutboundService, type OutboundOptions } from './outbound/service.ts';
import { createCommunitySearch } from './community/search/service.ts';
import { createSearchService } from './search/service.ts';

/** The key prefix of member files uploaded at run time (in the protected storage area, never in the content folder). */
const PROTECTED_UPLOADS = 'uploads/';

export interface ServiceOptions {
  /** An already migrated database; the caller closes it. Otherwise the configured one is opened. */
  database?: Database;
  /** Else the configured one is opened, with its files when prepared already (server.ts). */
  pgliteFiles?: PgliteFiles;
  /** What opening it does about migrations (default: applies them; a serverless function only verifies). */
  migrate?: OpenOptions['migrate'];
  /** How other instances' changes are heard (default: LISTEN; a serverless function reads the change log). */
  changes?: OpenOptions['changes'];
  /** The mail adapter; otherwise the configured one (SMTP or the embedded mailbox). */
  mailTransport?: MailTransport;
  /** Worker tuning (tests, the stand-alone worker). */
  worker?: Partial<Omit<WorkerOptions, 'db' | 'transport' | 'logger'>>;
  /** Now, as the embedded payment provider sees it (tests move it to renew and end subscriptions). */
  billingClock?: () => Date;
  /** Now, as billing's own records see it (our copies, the ledger, the revenue history); tests script a history of months with it. */
  billingServiceClock?: () => Date;
  /** The staff bodies' renderer's tuning (tests shorten its time limit). */
  staffRenderer?: BodyRendererOptions;
  /** Outbound webhooks' clock, sender, target policy and worker tuning (tests). */
  webhooks?: Partial<Omit<OutboundOptions, 'db' | 'logger'>>;
}

/** The outbox worker and its transport on `database`: what the stand-alone worker runs, and part of the services. */
export function createMailDelivery(config: Config, database: Database, logger: Logger, options: ServiceOptions = {}) {
  const transport = options.mailTransport ?? pickMailTransport(config.email, logger);
  const worker = createEmailWorker({
    db: database.db,
    transport,
    logger,
    concurrency: config.email.concurrency,
    leaseMs: config.email.leaseMs,
    subscribe: (wake) => database.listen(EMAIL_CHANNEL, wake),
    ...options.worker,
  });
  return {
    worker,
    transport,
    /** Stops the worker (finishing sends in flight) and closes the transport. */
    async stop(graceMs?: number) {
      await worker.stop(graceMs);
      await transport.close();
    },
  };
}

export async function createServices(config: Config, logger: Logger, options: ServiceOptions = {}) {
  // The database opens while the content loads (a fresh embedded one is copied on another thread);
  // a broken content file is still the error reported at once, and the database closes once open.
  const opening = options.database
    ? undefined
    : openDatabase(config.database, logger, { pgliteFiles: options.pgliteFiles, migrate: options.migrate, changes: options.changes });
  opening?.catch(() => undefined); // awaited below: a failure is not unhandled meanwhile
  let mdx: MdxSource;
  try {
    mdx = await createMdxSource(config.contentDir, await readContentIndex());
  } catch (err) {
    void opening?.then((opened) => opened.close()).catch(() => undefined);
    throw err;
  }
  const db = options.database ?? (await opening!);
  try {
    const content = createContentService({ db: db.db, mdx, logger, downloadHosts: config.downloadHosts });
    // Site search's text of git articles and lessons as the files are now (idempotent; instances take turns).
    await content.search.sync();
    // Staff bodies (articles, events, lessons, newsletter issues) are parsed on a thread of their own,
    // each within a time limit, images only from the site and the public media host (body-renderer.ts).
    const staffRenderer = createStaffRenderer({ ...options.staffRenderer, imageOrigins: bodyImageOrigins(config) });
    const render: RenderBody = (source, format) => staffRenderer.render(source, format);
    const contentCache = createPublicContentCache(content, { render, cacheControl: sharedCacheControl(config.cdnStalenessSeconds) });
    const { siteUrl } = config;
    const secret = await loadSigningSecret(createSecretStore(db.db), config.secretKey);
    const tokens = createTokens(secret);
    // Every file written at run time goes through the storage port: the bucket, or DATA_DIR on one machine.
    const media = await pickStorage(config.uploads.storage);
    const protectedArea = await pickStorage(config.uploads.protectedStorage);
    // Support requests' attachments: an area of their own, which no media URL or signed file link reaches.
    const supportArea = await pickStorage(config.uploads.supportStorage);
    const supportAttachments = createAttachments({
      storage: supportArea,
      maxBytes: ATTACHMENT_MAX_BYTES,
      minBytesPerSecond: config.uploads.minBytesPerSecond,
    });
    const downloads = createFileService({
      tokens,
      filesDir: config.filesDir,
      uploads: { prefix: PROTECTED_UPLOADS, storage: protectedArea },
      siteUrl,
      downloadHosts: config.downloadHosts,
    });
    const gated = createGatedContent({ content, files: downloads, render });
    content.onChange(() => gated.clear());
    // Another instance's write: drop every cached answer and rendered body.
    const clear = () => {
      contentCache.clear();
      gated.clear();
    };
    const unlisten = await db.listen(CONTENT_CHANNEL, clear, clear);

    const outbox = createEmailService({ db: db.db, from: config.email.from, siteUrl, maxAttempts: config.email.maxAttempts, logger });
    // Outbound webhooks: the domains emit in their transactions; loopback and private targets only on the embedded defaults.
    const { localTargets } = config.webhooks;
    const webhooks = createOutboundService({
      db: db.db,
      logger,
      policy: { allowPrivate: localTargets, allowHttp: localTargets },
      ...options.webhooks,
    });
    const { emitter } = webhooks;
    const mail = createMailDelivery(config, db, logger, options);
    const limiter = createRateLimitService(createRateLimitStore(db.db), secret);
    const progress = createProgressService({ db: db.db, content });
    const communityAccess = createCommunityAccess({ content, gated });
    // Members' posts are parsed on a thread of their own, each within a time limit (member-renderer.ts).
    const memberRenderer = createMemberRenderer();
    const community = createCommunityService({
      db: db.db,
      access: communityAccess,
      limiter,
      cacheControl: sharedCacheControl(config.cdnStalenessSeconds),
      renderPost: (source) => memberRenderer.render(source),
    });
    const newsletterArchive = createNewsletterArchive({ db: db.db, render });
    const communityPages = createCommunityPageReader(community);
    // The public search index (issue 36): what visitors read, made again when it changes (functions/search/).
    const publicIndex = createPublicSearchIndex({
      content: contentCache.reader,
      contentDir: config.contentDir,
      newsletter: newsletterArchive.reader,
      community: communityPages,
      cacheControl: sharedCacheControl(config.cdnStalenessSeconds),
      stalenessSeconds: config.cdnStalenessSeconds,
      logger,
    });
    contentCache.onClear(publicIndex.contentChanged);
    // Another instance's community write (or a missed notice): drop the visitors' serialised answers.
    const communityChanged = () => {
      community.changed();
      publicIndex.changed();
    };
    const unlistenCommunity = await db.listen(COMMUNITY_CHANNEL, communityChanged, communityChanged);
    // Moderation: members' reports, staff's queue and actions, suspensions, the log; categories for admins.
    const communityModeration = createModerationService({
      db: db.db,
      limiter,
      content,
      canRead: (viewer, threadId) => community.mayRead(viewer, threadId),
      onChange: communityChanged,
    });
    const communityCategories = createCategoryAdmin({ db: db.db, onChange: communityChanged });
    // Reply mails: the members' settings and mutes, and the round that mails followers (started below).
    const { roundMs } = config.communityMail;
    const communityNotifications = createNotificationService({
      db: db.db,
      outbox,
      tokens,
      access: communityAccess,
      siteUrl,
      logger,
      roundMs,
    });
    const feeds = createFeedService({ db: db.db, tokens, gated, contentCache, siteUrl });
    const events = createEventService({ db: db.db, content, outbox, limiter, siteUrl, webhooks: emitter });
    const eventNotices = createEventNotices({ db: db.db, content, outbox, siteUrl, logger });
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
      webhooks: emitter,
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
    const contact = createContactService({ db: db.db, outbox, inbox: config.email.contactInbox });
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
    const authKeys = createSigningKeys(createAuthStore(db.db), { tokenLifetimeSeconds: config.auth.jwtExpirySeconds });
    await authKeys.load();
    // Hosted mode: tokens come from the Supabase project and are checked against its published keys.
    const { hosted } = config.auth;
    const verifyAccessToken = hosted
      ? createAccessTokenVerifier({ issuer: `${hosted.url}/auth/v1`, keySet: remoteKeySet(`${hosted.url}/auth/v1/.well-known/jwks.json`) })
      : createAccessTokenVerifier({ issuer: `${siteUrl}/auth/v1`, keySet: localKeySet(authKeys) });
    const auth = createAuthService({
      db: db.db,
      outbox,
      limiter,
      keys: authKeys,
      verify: verifyAccessToken,
      secret,
      siteUrl,
      settings: config.auth,
      logger,
    });
    const users = createUserService({ db: db.db, outbox, adminEmails: config.auth.adminEmails, logger, webhooks: emitter });
    // A change to a profile on any instance (a payment, an admin's grant, a new name, a deletion): drop
    // the cached copy, and the community's kept visitors' answers, which name posts' authors.
    const unlistenProfiles = await db.listen(
      PROFILE_CHANNEL,
      (id) => {
        users.forget(id);
        community.changed();
      },
      () => {
        users.forgetAll();
        community.changed();
      },
    );
    const inbox = createWebhookInbox(db.db, logger);
    const payments = await pickPaymentProvider(config, {
      db: db.db,
      secret,
      logger,
      ...(options.billingClock ? { clock: options.billingClock } : {}),
    });
    const billing = createBillingService({
      db: db.db,
      provider: payments.provider,
      users,
      outbox,
      content,
      siteUrl,
      logger,
      webhooks: emitter,
      ...(options.billingServiceClock ? { clock: options.billingServiceClock } : {}),
    });
    const members = createMembers({
      db: db.db,
      users,
      importAccounts: hosted ? undefined : (tx, list) => auth.importAccounts(tx, list),
      addComp: (tx, actorId, userId, comp) => billing.access.comps.importComp(tx, actorId, userId, comp),
      subscribe: (email, source) => newsletter.subscribe(email, source),
      webhooks: emitter,
    });

    const uploads = createUploadService({
      media,
      protectedArea,
      protectedPrefix: PROTECTED_UPLOADS,
      mediaPath: MEDIA_PATH,
      maxBytes: config.uploads.maxBytes,
      minBytesPerSecond: config.uploads.minBytesPerSecond,
    });
    const directUploads = createDirectUploads({
      store: createUploadStore(db.db),
      areas: { public: media, protected: protectedArea, support: supportArea },
      urlOf: uploads.urlOf,
      maxBytes: { public: config.uploads.maxBytes, protected: config.uploads.maxBytes, support: ATTACHMENT_MAX_BYTES },
    });

    // Cross-service hooks, connected once every service exists (nothing calls them before start-up ends).
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
    content.connect({ onWrite: createEventChanges({ outbox, siteUrl }) });
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
    const idempotency = createIdempotencyLedger(db.db);

    let pruning: NodeJS.Timeout | undefined;
    let renew: NodeJS.Timeout | undefined;
    let grantSweep: NodeJS.Timeout | undefined;
    let started = false;
    /**
     * The demo accounts (embedded defaults, previews): inserts that ignore an existing address, so
     * instances starting together, or a function instance at each start, make each account once.
     */
    const seedDemo = async () => {
      if (!config.auth.seedDemo || config.auth.hosted) return;
      const ids = await auth.createConfirmedUsers(DEMO_ACCOUNTS, DEMO_PASSWORD, demoPasswordHash(config.auth.bcryptCost));
      const seeded = DEMO_ACCOUNTS.map((account, i) => ({ ...account, id: ids[i]! }));
      for (const account of seeded) await users.assign(account.id, account.role, account.accessLevel);
      // The community's demo categories and threads, written by those accounts (their HTML rendered
      // ahead: community/demo-html.ts), and two past newsletter issues.
      await seedDemoCommunity(db.db, seeded);
      await seedDemoNewsletter(db.db, seeded.find((account) => account.role === 'admin')!.id);
    };
    let eventsConnected: Promise<void> | undefined;
    /**
     * Hands the embedded provider's stored events (checkouts, renewals) to the billing handler, the
     * one Stripe's webhooks reach, from now on: what an instance answering requests needs even when it
     * runs no background work (a serverless function). `start()` does it too.
     */
    const connectEvents = (): Promise<void> =>
      (eventsConnected ??= payments.embedded
        ? payments.embedded.connect((event) => inbox.receive('payments', event, () => billing.handleEvent(event)))
        : Promise.resolve());
    /** Deletes what has outlived its use: rate-limit windows, abandoned direct uploads, idempotency keys past their day, the change log's old rows. */
    const prune = async (): Promise<void> => {
      await Promise.all([
        limiter.prune().catch((err: unknown) => logger.warn({ err }, 'pruning rate limits failed')),
        directUploads.prune().catch((err: unknown) => logger.warn({ err }, 'pruning direct uploads failed')),
        idempotency.sweep().catch((err: unknown) => logger.warn({ err }, 'sweeping idempotency keys failed')),
        pruneChanges(db.db).catch((err: unknown) => logger.warn({ err }, 'pruning the change log failed')),
        webhooks.prune().catch((err: unknown) => logger.warn({ err }, 'pruning the webhook delivery log failed')),
      ]);
    };
    return {
      database: db,
      mdx,
      content,
      contentCache,
      tokens,
      outbox,
      mail,
      limiter,
      downloads,
      gated,
      progress,
      feeds,
      /** Webinars and events: registrations, the join link, calendar files. */
      events,
      /** The events' reminders and cancellation notices (ticking once started). */
      eventNotices,
      /** Staff's list of an event's registrants. */
      eventRegistrants: createRegistrantList({ db: db.db, events }),
      newsletter,
      /** Staff's newsletter issues: drafts, previews, test copies, sending, scheduling. */
      newsletterIssues,
      /** Sends issues (one copy per recipient) and their account; ticking once started. */
      newsletterSender,
      /** The newsletter's web archive (pages and the gated body). */
      newsletterArchive,
      contact,
      leads,
      /** The community: categories, threads, replies, comments, likes, search. */
      community,
      /** What the community's pages read on the server: what a visitor may read, nothing more. */
      communityPages,
      /** The public search index's files (/pagefind/), made from what visitors read. */
      publicIndex,
      /** Community moderation: reports, the queue, staff's actions, suspensions and the log. */
      communityModeration,
      /** The community's categories as admins manage them. */
      communityCategories,
      /** Community reply mails: settings, mutes, the mail's links and the round (ticking once started). */
      communityNotifications,
      /** The support desk: members' requests, staff's queue, replies and notes. */
      support,
      /** Support requests' attachments (their own storage area). */
      supportAttachments,
      auth,
      authKeys,
      users,
      verifyAccessToken,
      inbox,
      billing,
      /** AI drafting for the create form: the configured model, or the offline drafter. */
      drafter: await pickDrafter(config.ai, { logger, catalogue: catalogueFrom(content) }),
      /** POST /api/upload: public media through the configured storage adapter, member files into the protected area. */
      uploads,
      /** Uploads a browser sends straight to the bucket (registered, then checked when completed). */
      directUploads,
      /** Idempotency-Keys on API writes: claims, the commit mark, kept answers (platform/idempotency). */
      idempotency,
      /** Outbound webhooks: endpoints, the delivery log, the emitter and the delivery worker. */
      webhooks,
      /** Site search's server part: the gated text each domain keeps, cut at the caller's level (search/service.ts). */
      search: createSearchService({
        db: db.db,
        content: content.search,
        community: createCommunitySearch({ db: db.db }),
        newsletter: newsletterArchive,
        ownedCourses: async (viewer) => (await billing.purchases(viewer)).filter((p) => p.type === 'course').map((p) => p.slug),
      }),
      /** The admin dashboard's member search, audit log and overview figures. */
      admin: createAdminService({ db: db.db, roster: members.members }),
      /** The members' business tools: filters, labels, segments, the CSV import and API keys. */
      members,
      /** Revenue analytics over payments' revenue history (the admin overview's Revenue section). */
      analytics: createAnalyticsService({ history: billing.revenue }),
      /** The embedded test provider (checkout and portal pages, the clock), when it is the one in use. */
      embeddedBilling: payments.embedded,
      /** Whether a token's session is still signed in, at whichever auth service issued it. */
      sessionIsLive: (token: string, sessionId: string | undefined) =>
        hosted ? hostedSessionIsLive(hosted, token) : auth.sessionIsLive(sessionId),
      connectEvents,
      prune,
      /** The demo accounts, community and newsletter issues where the configuration wants them (a function instance's start). */
      seedDemo,
      /**
       * Starts background work: the outbox worker (unless EMAIL_WORKER=false), the events' reminder tick,
       * the newsletter's scheduler and the community's reply mails (every instance: they only queue mail)
       * and the hourly prune of rate limits, abandoned direct uploads, idempotency keys past their day
       * and the change log.
       */
      async start() {
        if (started) return;
        started = true;
        await seedDemo();
        if (config.email.worker) await mail.worker.start();
        // Every instance ticks: each reminder is claimed once whoever looks (functions/events/notices.ts).
        eventNotices.start();
        // Every instance ticks too: a due issue is claimed once whoever looks (functions/newsletter/issues/sending.ts).
        newsletterSender.start();
        // Every instance mails followers too: each follow row is claimed once (functions/community/notifications/round.ts).
        communityNotifications.mails.start();
        // Every instance delivers webhooks too: each delivery is leased to one worker (functions/outbound/worker.ts).
        webhooks.worker.start();
        pruning = setInterval(() => void prune(), 3_600_000);
        pruning.unref();
        // Every instance sweeps: each grant's end is applied once, under its member's lock (payments/grants/sweep.ts).
        grantSweep = setInterval(
          () => void billing.tick().catch((err: unknown) => logger.warn({ err }, 'the billing clock (grants, trials, offers) failed')),
          config.billing.grantSweepMs,
        );
        grantSweep.unref();
        // The embedded provider's events reach the same handler as Stripe's webhooks; its subscriptions renew on the minute.
        await connectEvents();
        const embedded = payments.embedded;
        if (embedded) {
          renew = setInterval(
            () => void embedded.advance().catch((err: unknown) => logger.warn({ err }, 'embedded billing renewal failed')),
            config.billing.clockMs,
          );
          renew.unref();
        }
      },
      /**
       * Stops background work (sends in flight finish), closes the transport, stops listening and
       * closes the database when this call opened it. Call after the HTTP server has drained, so
       * mail queued by the last requests is still sent.
       */
      async close() {
        clearInterval(pruning);
        clearInterval(renew);
        clearInterval(grantSweep);
        await payments.embedded?.stop();
        await eventNotices.stop();
        await newsletterSender.stop();
        await communityNotifications.mails.stop();
        await webhooks.worker.stop();
        await memberRenderer.close();
        await closePagefind().catch(() => undefined);
        await staffRenderer.close();
        await mail.stop().catch((err: unknown) => logger.warn({ err }, 'mail shutdown failed'));
        await unlisten().catch(() => undefined);
        await unlistenProfiles().catch(() => undefined);
        await unlistenCommunity().catch(() => undefined);
        if (!options.database) await db.close();
      },
    };
  } catch (err) {
    if (!options.database) await db.close().catch(() => undefined);
    throw err;
  }
}

export type Services = Awaited<ReturnType<typeof createServices>>;
