import { describe, expect, it } from 'vitest';
import type { SearchResult } from '#shared/search.ts';
import { groupResults, mergeResults } from './search-groups.ts';

const result = (type: SearchResult['type'], url: string): SearchResult => ({
  type,
  slug: url.split('/').at(-1)!,
  title: url,
  url,
  snippet: '',
});

describe('mergeResults', () => {
  it('keeps the public results first and adds the server results for other pages only', () => {
    const merged = mergeResults(
      [result('blog', '/blog/a'), result('faq', '/faq#faq-q1')],
      [result('blog', '/blog/a'), result('course', '/courses/c?lesson=l1')],
    );
    expect(merged.map((r) => r.url)).toEqual(['/blog/a', '/faq#faq-q1', '/courses/c?lesson=l1']);
  });
});

describe('groupResults', () => {
  it('groups by kind, each group where its best result stands', () => {
    const groups = groupResults([
      result('course', '/courses/x'),
      result('blog', '/blog/a'),
      result('course', '/courses/y'),
      result('faq', '/faq#faq-q2'),
    ]);
    expect(groups.map((g) => [g.type, g.results.map((r) => r.url)])).toEqual([
      ['course', ['/courses/x', '/courses/y']],
      ['blog', ['/blog/a']],
      ['faq', ['/faq#faq-q2']],
    ]);
  });
});
