import { describe, expect, it } from 'vitest';
import { PURCHASABLE_TYPES as SOLD_BY_REGISTRY } from '#shared/content/registry.ts';
import { PURCHASABLE_TYPES } from './tables.ts';

describe('purchases table', () => {
  it('takes exactly the types the registry sells one at a time (a new one needs a migration of the check constraint)', () => {
    expect([...PURCHASABLE_TYPES].sort()).toEqual([...SOLD_BY_REGISTRY].sort());
  });
});
