/**
 * Signed, purpose-bound tokens for links (newsletter confirmation and unsubscribe, downloads):
 * compact HS256 JWTs (jose). A token made for one purpose never verifies for another.
 */
import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';

export type TokenPurpose =
  | 'newsletter-confirm'
  | 'newsletter-unsubscribe'
  | 'download'
  | 'member-feed'
  // A community reply mail's links: turn the member's reply mails off, mute one thread.
  | 'community-unsubscribe'
  | 'community-mute'
  // A newsletter issue's copy at one level, shown in the editor's preview frame for a few minutes.
  | 'mail-preview';

export type TokenResult<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

/** The protected header every token here carries, encoded once. */
const HS256_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');

export function createTokens(secret: Uint8Array) {
  return {
    /** Signs `claims` for `purpose`; `ttlSeconds` omitted means the token does not expire. */
    async sign(purpose: TokenPurpose, claims: Record<string, string | number>, ttlSeconds?: number): Promise<string> {
      const jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).setAudience(purpose).setIssuedAt();
      if (ttlSeconds !== undefined) jwt.setExpirationTime(`${ttlSeconds}s`);
      return jwt.sign(secret);
    },

    /**
     * `sign` without waiting and without an expiry, for thousands of links at once (a newsletter
     * issue's unsubscribe links): the same compact HS256 JWT, its HMAC computed by node:crypto in
     * place. jose signs through WebCrypto, a thread-pool job per token, whose native buffers kept
     * tens of megabytes per 10,000 tokens; `verify` takes both alike.
     */
    signNow(purpose: TokenPurpose, claims: Record<string, string | number>): string {
      const payload = Buffer.from(JSON.stringify({ ...claims, aud: purpose, iat: Math.floor(Date.now() / 1000) })).toString('base64url');
      const signing = `${HS256_HEADER}.${payload}`;
      return `${signing}.${createHmac('sha256', secret).update(signing).digest('base64url')}`;
    },

    /** Verifies a token for `purpose`; tells expired tokens apart from bad ones. */
    async verify<T extends JWTPayload>(purpose: TokenPurpose, token: string): Promise<TokenResult<T>> {
      if (!token || token.length > 2048) return { ok: false, reason: 'invalid' };
      try {
        const { payload } = await jwtVerify<T>(token, secret, { audience: purpose, algorithms: ['HS256'] });
        return { ok: true, claims: payload };
      } catch (err) {
        return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;
