import bcrypt from 'bcrypt';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from './demo.ts';

describe('demo accounts', () => {
  it('seed the hash of the demo password, made ahead', async () => {
    expect(await bcrypt.compare(DEMO_PASSWORD, DEMO_PASSWORD_HASH)).toBe(true);
    expect(await bcrypt.compare(`${DEMO_PASSWORD}x`, DEMO_PASSWORD_HASH)).toBe(false);
  });
});
