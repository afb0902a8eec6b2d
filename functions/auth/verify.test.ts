import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAccessTokenVerifier, InvalidTokenError } from './verify.ts';

const ISSUER = 'https://site.test/auth/v1';

async function setup() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  const verify = createAccessTokenVerifier({ issuer: ISSUER, keySet: createLocalJWKSet({ keys: [jwk] }) });
  const sign = (expiresIn: number, claims: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ role: 'authenticated', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience('authenticated')
      .setSubject('0b6f3c0e-5d1a-4f7e-9a57-2f0c1c7d9e11')
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .sign(privateKey);
  };
  return { verify, sign };
}

describe('access-token verifier', () => {
  afterEach(() => vi.useRealTimers());

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { verify, sign } = await setup();
    const token = await sign(60);
    expect((await verify(token)).sub).toBe('0b6f3c0e-5d1a-4f7e-9a57-2f0c1c7d9e11');
    expect((await verify(token)).sub).toBeDefined(); // from the cache
    vi.setSystemTime(Date.now() + 61_000);
    await expect(verify(token)).rejects.toMatchObject({ name: 'InvalidTokenError', expired: true });
  });

  it('only remembers the exact token that passed: a changed one is checked again and refused', async () => {
    const { verify, sign } = await setup();
    const token = await sign(3600);
    await verify(token);
    const [head, , signature] = token.split('.');
    const tampered = `${head}.${Buffer.from(JSON.stringify({ sub: 'someone-else', exp: 9e9, iss: ISSUER, aud: 'authenticated' })).toString('base64url')}.${signature}`;
    await expect(verify(tampered)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
