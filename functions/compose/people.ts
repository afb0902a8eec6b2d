/**
 * The composition's people part: the auth service's signing keys, the access-token verifier (the
 * embedded keys, or the hosted project's published ones), the auth service, the users service and
 * the profile channel's listener.
 */
import { createSigningKeys } from '../auth/keys.ts';
import { hostedSessionIsLive } from '../auth/hosted.ts';
import { createAuthService } from '../auth/service.ts';
import { createAuthStore } from '../auth/store.ts';
import { createAccessTokenVerifier, localKeySet, remoteKeySet } from '../auth/verify.ts';
import type { CommunityService } from '../community/service.ts';
import type { Config } from '../config.ts';
import type { EmailService } from '../email/service.ts';
import type { WebhookEmitter } from '../outbound/port.ts';
import type { RateLimitService } from '../platform/abuse/service.ts';
import type { Database } from '../platform/db/client.ts';
import type { Logger } from '../platform/logger.ts';
import { createUserService } from '../users/service.ts';
import { PROFILE_CHANNEL } from '../users/store.ts';

/** What sign-in and the members' profiles are built on. */
export interface PeopleDeps {
  db: Database;
  config: Config;
  logger: Logger;
  outbox: EmailService;
  limiter: RateLimitService;
  /** The signing secret (platform/secrets). */
  secret: Uint8Array;
  webhooks: WebhookEmitter;
  /** Its visitors' answers name posts' authors: a profile change drops them. */
  community: CommunityService;
}

/** Loads the signing keys, builds auth and users, and listens on the profile channel. */
export async function buildPeople({ db, config, logger, outbox, limiter, secret, webhooks, community }: PeopleDeps) {
  const { siteUrl } = config;
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
  const users = createUserService({ db: db.db, outbox, adminEmails: config.auth.adminEmails, logger, webhooks });
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
  return {
    auth,
    authKeys,
    users,
    verifyAccessToken,
    /** Whether a token's session is still signed in, at whichever auth service issued it. */
    sessionIsLive: (token: string, sessionId: string | undefined) =>
      hosted ? hostedSessionIsLive(hosted, token) : auth.sessionIsLive(sessionId),
    unlistenProfiles,
  };
}
