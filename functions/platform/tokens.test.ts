import { describe, expect, it, vi } from 'vitest';
import { createTokens } from './tokens.ts';

const tokens = createTokens(new TextEncoder().encode('k'.repeat(48)));

describe('signed tokens', () => {
  it('verifies a token for its purpose and returns its claims', async () => {
    const token = await tokens.sign('download', { key: 'downloads/a.pdf' }, 60);
    const result = await tokens.verify<{ key: string }>('download', token);
    expect(result).toMatchObject({ ok: true, claims: { key: 'downloads/a.pdf' } });
  });

  it('verifies a token made at once (signNow) like one from sign, for its purpose only', async () => {
    const token = tokens.signNow('newsletter-unsubscribe', { i: 'issue', a: 'reader@example.com' });
    expect(await tokens.verify('newsletter-unsubscribe', token)).toMatchObject({
      ok: true,
      claims: { i: 'issue', a: 'reader@example.com' },
    });
    expect((await tokens.verify('newsletter-confirm', token)).ok).toBe(false);
    const [h, , s] = token.split('.');
    const turned = Buffer.from(JSON.stringify({ i: 'issue', a: 'other@example.com', aud: 'newsletter-unsubscribe' })).toString('base64url');
    expect((await tokens.verify('newsletter-unsubscribe', `${h}.${turned}.${s}`)).ok).toBe(false);
    expect((await createTokens(new TextEncoder().encode('o'.repeat(48))).verify('newsletter-unsubscribe', token)).ok).toBe(false);
  });

  it('refuses a token made for another purpose', async () => {
    const token = await tokens.sign('newsletter-unsubscribe', { sub: 'x' });
    expect(await tokens.verify('newsletter-confirm', token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a token signed with another key, altered, empty or absurdly long', async () => {
    const other = await createTokens(new TextEncoder().encode('o'.repeat(48))).sign('download', { key: 'a' });
    expect((await tokens.verify('download', other)).ok).toBe(false);
    const good = await tokens.sign('download', { key: 'a' });
    const [h, p, s] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ key: '../../etc/passwd', aud: 'download' })).toString('base64url');
    expect((await tokens.verify('download', `${h}.${forgedPayload}.${s}`)).ok).toBe(false);
    expect((await tokens.verify('download', `${h}.${p}`)).ok).toBe(false);
    expect((await tokens.verify('download', '')).ok).toBe(false);
    expect((await tokens.verify('download', 'a'.repeat(5000))).ok).toBe(false);
  });

  it('reports an expired token as expired', async () => {
    const token = await tokens.sign('download', { key: 'a' }, 1);
    // The clock moved past the one-second lifetime instead of a real wait.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 1100);
      expect(await tokens.verify('download', token)).toEqual({ ok: false, reason: 'expired' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('makes tokens without expiry when no lifetime is given', async () => {
    const token = await tokens.sign('newsletter-unsubscribe', { sub: 'x' });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(payload.exp).toBeUndefined();
    expect(payload.aud).toBe('newsletter-unsubscribe');
  });
});
