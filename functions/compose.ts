/**
 * The composition root: opens the database and builds the services every entry point shares (the
 * Node server, the dev server integration, tests), picks each outside service's adapter once from
 * configuration, then connects the services that call each other and registers the personal-data
 * hooks. This file is the order, top to bottom; each part is built by a named function in
 * `functions/compose/` that takes what it needs (a typed deps object) and returns what it built.
 */
import { pickDrafter } from './ai/index.ts';
import { catalogueFrom } from './ai/offline.ts';
import type { Config } from './config.ts';
import { readContentIndex } from './content/content-index.ts';
import { createMdxSource, type MdxSource } from './content/mdx-source.ts';
import { createRateLimitService } from './platform/abuse/service.ts';
import { createRateLimitStore } from './platform/abuse/store.ts';
import { openDatabase, type Database } from './platform/db/client.ts';
import { createIdempotencyLedger } from './platform/idempotency/ledger.ts';
import type { Logger } from './platform/logger.ts';
import { loadSigningSecret } from './platform/secrets/service.ts';
import { createSecretStore } from './platform/secrets/store.ts';
import { createTokens } from './platform/tokens.ts';
import { buildBilling } from './compose/billing.ts';
import { buildCommunity } from './compose/community.ts';
import { buildContent, buildGatedContent, buildSiteSearch } from './compose/content.ts';
import { connectServices, registerPersonalData } from './compose/hooks.ts';
import { createLifecycle } from './compose/lifecycle.ts';
import { buildMessages, createMailDelivery } from './compose/mail.ts';
import { buildNewsletter } from './compose/newsletter.ts';
import type { ServiceOptions } from './compose/options.ts';
import { buildOutreach } from './compose/outreach.ts';
import { buildPeople } from './compose/people.ts';
import { buildUploads, openStorageAreas } from './compose/uploads.ts';

export { createMailDelivery };
export type { ServiceOptions };

/**
 * Opens the database and the content together, builds every service on them and returns them with
 * `start()` and `close()`; a failed build closes the database it opened.
 */
export async function createServices(config: Config, logger: Logger, options: ServiceOptions = {}) {
  const { db, mdx } = await openDatabaseAndContent(config, logger, options);
  try {
    return await composeServices({ config, logger, options, db, mdx });
  } catch (err) {
    if (!options.database) await db.close().catch(() => undefined);
    throw err;
  }
}

export type Services = Awaited<ReturnType<typeof createServices>>;

/**
 * The database opens while the content loads (a fresh embedded one is copied on another thread);
 * a broken content file is still the error reported at once, and the database closes once open.
 */
async function openDatabaseAndContent(config: Config, logger: Logger, options: ServiceOptions): Promise<{ db: Database; mdx: MdxSource }> {
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
  return { db: options.database ?? (await opening!), mdx };
}

/** What every part is built on: the configuration, the logger, the caller's options, the open database and the content. */
interface ComposeDeps {
  config: Config;
  logger: Logger;
  options: ServiceOptions;
  db: Database;
  mdx: MdxSource;
}

/**
 * Builds every part on the open database (createServices closes it if this throws). The order below
 * is the order of the effects: what is awaited (the content's search sync, the signing secret, the
 * storage areas, the signing keys, the payment provider, the drafter) and the channels' listeners
 * (content, community, profiles), each inside the part that needs it.
 */
async function composeServices({ config, logger, options, db, mdx }: ComposeDeps) {
  const base = { db, config, logger };
  const { staffRenderer, render, ...contentParts } = await buildContent({ ...base, mdx, staffRenderer: options.staffRenderer });
  const { content, contentCache } = contentParts;
  const secret = await loadSigningSecret(createSecretStore(db.db), config.secretKey);
  const tokens = createTokens(secret);
  const areas = await openStorageAreas(config);
  const { protectedArea, supportArea } = areas;
  const { unlistenContent, ...gatedParts } = await buildGatedContent({ ...base, content, contentCache, render, tokens, protectedArea });
  const { gated, downloads } = gatedParts;
  const { outbox, webhooks } = buildMessages({ ...base, outboundOptions: options.webhooks });
  const { emitter } = webhooks;
  const mail = createMailDelivery(config, db, logger, options);
  const limiter = createRateLimitService(createRateLimitStore(db.db), secret);
  // The newsletter before the community: the public search index lists the newsletter's archive.
  const newsletterParts = buildNewsletter({ ...base, outbox, tokens, content, render, webhooks: emitter });
  const { newsletter, newsletterArchive } = newsletterParts;
  const communityDeps = { ...base, content, contentCache, gated, limiter, outbox, tokens, newsletterArchive };
  const { memberRenderer, unlistenCommunity, ...communityParts } = await buildCommunity(communityDeps);
  const outreachParts = buildOutreach({ ...base, content, outbox, limiter, webhooks: emitter, downloads, supportArea });
  const peopleDeps = { ...base, outbox, limiter, secret, webhooks: emitter, community: communityParts.community };
  const { unlistenProfiles, ...peopleParts } = await buildPeople(peopleDeps);
  const { auth, users } = peopleParts;
  const billingDeps = { ...base, secret, outbox, content, users, auth, newsletter, webhooks: emitter, options };
  const billingParts = await buildBilling(billingDeps);
  const { billing } = billingParts;
  const uploadParts = buildUploads({ ...base, areas });
  // Cross-service hooks, connected once every service exists (nothing calls them before start-up ends).
  connectServices({ config, auth, users, billing, outbox, newsletter, gated, content });
  registerPersonalData({ users, support: outreachParts.support, webhooks });
  const idempotency = createIdempotencyLedger(db.db);
  const services = {
    database: db,
    mdx,
    ...contentParts,
    tokens,
    outbox,
    mail,
    limiter,
    ...gatedParts,
    ...outreachParts,
    ...newsletterParts,
    ...communityParts,
    ...peopleParts,
    ...billingParts,
    /** AI drafting for the create form: the configured model, or the offline drafter. */
    drafter: await pickDrafter(config.ai, { logger, catalogue: catalogueFrom(content) }),
    ...uploadParts,
    /** Idempotency-Keys on API writes: claims, the commit mark, kept answers (platform/idempotency). */
    idempotency,
    /** Outbound webhooks: endpoints, the delivery log, the emitter and the delivery worker. */
    webhooks,
    /** Site search's server part: the gated text each domain keeps, cut at the caller's level (search/service.ts). */
    search: buildSiteSearch({ db, content, newsletterArchive, billing }),
  };
  // What only close() needs: the renderers' threads and the channels' listeners.
  const closing = { memberRenderer, staffRenderer, unlistenContent, unlistenProfiles, unlistenCommunity };
  const lifecycle = createLifecycle({ ...services, ...closing, config, logger, db, ownsDatabase: !options.database });
  return { ...services, ...lifecycle };
}
