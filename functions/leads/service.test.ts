import { describe, expect, it } from 'vitest';
import { CONTENT_REGISTRY, CONTENT_TYPES } from '#shared/content/registry.ts';
import { LEAD_TYPE } from './service.ts';

describe('lead capture', () => {
  it('serves exactly the types whose definition offers a free download for an email (download.leadWhenFree)', () => {
    const offered = CONTENT_TYPES.filter((type) => CONTENT_REGISTRY[type].download?.leadWhenFree === true);
    expect(offered).toEqual([LEAD_TYPE]);
  });
});
