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
  // Keyed by the signature (a short key to hash); a hit needs the whole token's exact bytes.
  const verified = new Map<string, { token: string; claims: AccessClaims }>();
  const keyOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);

  /** The claims of a token verified lately and not expired, without waiting; undefined otherwise. */
  function peek(token: string): AccessClaims | undefined {
    const known = verified.get(keyOf(token));
    return known?.token === token && known.claims.exp! * 1000 > Date.now() ? known.claims : undefined;
  }

  async function verifyAccessToken(token: string): Promise<AccessClaims> {
    const key = keyOf(token);
    const known = verified.get(key);
    if (known?.token === token) {
      if (known.claims.exp! * 1000 > Date.now()) return known.claims;
      verified.delete(key);
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
      verified.set(key, { token, claims: payload as AccessClaims });
      return payload as AccessClaims;
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new InvalidTokenError('token has invalid claims: token is expired', true);
      if (err instanceof errors.JOSEError) throw new InvalidTokenError(err.message);
      throw err;
    }
  }
  return Object.assign(verifyAccessToken, { peek });
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
