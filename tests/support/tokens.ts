/**
 * Every kind of wrong access token, made from a good one: signed by a stranger, by our own key with
 * bad claims (expired, another issuer or audience, a sub that is no UUID), unsigned (`alg: none`),
 * HS256 with the public key as secret, a tampered payload, and no JWT at all. Our signing key is
 * read from the database the server uses.
 */
import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, SignJWT } from 'jose';
import type { Db } from '../../functions/platform/db/client.ts';
import { authSigningKeys } from '../../functions/auth/tables.ts';

export async function badTokens(db: Db, good: string, otherUserId: string): Promise<Record<string, string>> {
  const claims = decodeJwt(good);
  const kid = decodeProtectedHeader(good).kid!;
  const now = Math.floor(Date.now() / 1000);
  const [row] = await db.select().from(authSigningKeys).where(eq(authSigningKeys.kid, kid));
  const ours = (await importJWK(row!.privateJwk as never, 'ES256')) as CryptoKey;
  const { privateKey: stranger } = await generateKeyPair('ES256');
  const sign = (key: CryptoKey | Uint8Array, payload: Record<string, unknown>, header: Record<string, unknown>) =>
    new SignJWT(payload).setProtectedHeader(header as never).sign(key);
  const [head, body, signature] = good.split('.');
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    'a stranger’s key': await sign(stranger, claims, { alg: 'ES256', kid }),
    'an unknown kid': await sign(stranger, claims, { alg: 'ES256', kid: crypto.randomUUID() }),
    expired: await sign(ours, { ...claims, iat: now - 7200, exp: now - 3600 }, { alg: 'ES256', kid }),
    'wrong issuer': await sign(ours, { ...claims, iss: 'https://evil.example/auth/v1' }, { alg: 'ES256', kid }),
    'wrong audience': await sign(ours, { ...claims, aud: 'service_role' }, { alg: 'ES256', kid }),
    'sub not a uuid': await sign(ours, { ...claims, sub: 'admin' }, { alg: 'ES256', kid }),
    'alg none': `${encode({ alg: 'none', typ: 'JWT' })}.${body}.`,
    'HS256 with the public key': await sign(new TextEncoder().encode(JSON.stringify(row!.publicJwk)), claims, { alg: 'HS256', kid }),
    'a tampered payload': `${head}.${encode({ ...claims, sub: otherUserId })}.${signature}`,
    'not a JWT': 'garbage',
  };
}
