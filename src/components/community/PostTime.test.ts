import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PostTime, RenderedAt, relativeTime } from './PostTime.tsx';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('relativeTime', () => {
  it('says how long ago within a week, in the largest whole unit', () => {
    expect(relativeTime(ago(20_000), NOW)).toBe('just now');
    expect(relativeTime(ago(5 * 60_000), NOW)).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3_600_000 + 59 * 60_000), NOW)).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3_600_000), NOW)).toBe('yesterday');
    expect(relativeTime(ago(6 * 86_400_000), NOW)).toBe('6 days ago');
  });

  it('leaves a week or more and a bad date to the date itself', () => {
    expect(relativeTime(ago(7 * 86_400_000), NOW)).toBeUndefined();
    expect(relativeTime('not a date', NOW)).toBeUndefined();
  });

  it("reads a post from a moment ahead of this browser's clock as just now", () => {
    expect(relativeTime(new Date(NOW + 60_000).toISOString(), NOW)).toBe('just now');
  });
});

describe('PostTime on the server', () => {
  const at = ago(5 * 60_000);

  it('says how long ago as of the moment the page tells it rendered, the words the browser then keeps', () => {
    const html = renderToString(createElement(RenderedAt.Provider, { value: NOW }, createElement(PostTime, { at })));
    expect(html).toContain('5 minutes ago');
  });

  it('says the day in UTC when the page tells no moment', () => {
    expect(renderToString(createElement(PostTime, { at }))).toContain('November 25, 2026');
  });
});
