import { describe, expect, it } from 'vitest';
import { DEMO_POST_HTML } from './demo-html.ts';
import { demoPostHtml } from './demo-html-source.ts';

describe('the demo community', () => {
  it('stores each post as the member renderer makes it (else run "node scripts/demo-html.ts")', () => {
    expect(DEMO_POST_HTML).toEqual(demoPostHtml());
  });
});
