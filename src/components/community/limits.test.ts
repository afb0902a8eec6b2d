import { describe, expect, it } from 'vitest';
import { MAX_POST_CHARS, MAX_TITLE_CHARS } from '../../../functions/community/schema.ts';
import { COMMUNITY_LIMITS } from './limits.ts';

describe("the community forms' limits", () => {
  it("are the server's", () => {
    expect(COMMUNITY_LIMITS).toEqual({ title: MAX_TITLE_CHARS, body: MAX_POST_CHARS });
  });
});
