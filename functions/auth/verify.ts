/**
 * Access-token verification, the same for our embedded service and for a hosted Supabase project:
 * a JWKS (ours in process, or the project's over HTTPS, cached 10 minutes), the issuer, the audience
 * `authenticated` and the expiry. Only ES256 and RS256 are accepted, so `alg: none` and HS256 tokens
 * signed with a public key are refused.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { SigningKeys } from './keys.ts';

export const AUDIENCE = 'authenticated';
const ALGORITHMS = ['ES256', 'RS256'];

export interface AccessClaims extends JWTPayload {
  sub: string;
  email?: string;
  role?: string;
  session_id?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  is_anonymous?: boolean;
}

export class InvalidTokenError extends Error {
  readonly expired: boolean;
  constructor(message: string, expired = false) {
    super(message);
    this.name = 'InvalidTokenError';
    this.expired = expired;
  }
}

/** Our own keys, reloaded from the database once when a token names a `kid` we have not seen (a rotation elsewhere). */
export function localKeySet(keys: SigningKeys): JWTVerifyGetKey {
  let set = createLocalJWKSet(keys.jwks());
  return async (header, token) => {
    try {
      return await set(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      await keys.refresh();
      set = createLocalJWKSet(keys.jwks());
      return set(header, token);
    }
  };
}

/** A hosted project's published keys. */
export function remoteKeySet(jwksUrl: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(jwksUrl), { cacheMaxAge: 600_000, cooldownDuration: 30_000 });
}

/** Tokens verified lately, so a member's next calls skip the signature check (bounded; entries die with the token). */
const VERIFIED_CACHE_SIZE = 10_000;

export function createAccessTokenVerifier({ issuer, keySet }: { issuer: string; keySet: JWTVerifyGetKey }) {
  // Keyed by the whole token string: only the exact bytes that passed verification hit.
  const verified = new Map<string, AccessClaims>();
  return async function verifyAccessToken(token: string): Promise<AccessClaims> {
    const known = verified.get(token);
    if (known) {
      if (known.exp! * 1000 > Date.now()) return known;
      verified.delete(token);
      throw new InvalidTokenError('token has invalid claims: token is expired', true);
    }
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer,
        audience: AUDIENCE,
        algorithms: ALGORITHMS,
        requiredClaims: ['sub', 'exp'],
      });
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, payload as AccessClaims);
      return payload as AccessClaims;
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new InvalidTokenError('token has invalid claims: token is expired', true);
      if (err instanceof errors.JOSEError) throw new InvalidTokenError(err.message);
      throw err;
    }
  };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
