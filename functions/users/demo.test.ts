import bcrypt from 'bcrypt';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, demoPasswordHash } from './demo.ts';

describe('demo accounts', () => {
  it('seed the hash of the demo password, made ahead', async () => {
    expect(await bcrypt.compare(DEMO_PASSWORD, DEMO_PASSWORD_HASH)).toBe(true);
    expect(await bcrypt.compare(`${DEMO_PASSWORD}x`, DEMO_PASSWORD_HASH)).toBe(false);
  });

  it('use it only at its own cost, so AUTH_BCRYPT_COST holds for them too', () => {
    expect(demoPasswordHash(10)).toBe(DEMO_PASSWORD_HASH);
    expect(bcrypt.getRounds(DEMO_PASSWORD_HASH)).toBe(10);
    expect(demoPasswordHash(4)).toBeUndefined();
    expect(demoPasswordHash(12)).toBeUndefined();
  });
});
