import { describe, expect, it } from 'vitest';
import type { ContentType } from './schema.ts';
import {
  CONTENT_TYPE_INFO,
  detailFailureMessage,
  itemPath,
  listFailureMessage,
  typeFromApiSegment,
} from './types.ts';

describe('typeFromApiSegment', () => {
  it.each([
    ['blogs', 'blog'],
    ['tools', 'tool'],
    ['courses', 'course'],
    ['market', 'market'],
  ])('maps %j to %j', (segment, type) => {
    expect(typeFromApiSegment(segment)).toBe(type);
  });

  it.each(['blog', '', 'BLOGS', '__proto__', 'constructor', 'toString', 'blogs/'])('returns undefined for %j', (segment) => {
    expect(typeFromApiSegment(segment)).toBeUndefined();
  });
});

describe('spec texts', () => {
  it.each<[ContentType, string]>([
    ['blog', 'Failed to load blog articles.'],
    ['course', 'Failed to load courses.'],
    ['tool', 'Failed to load tools.'],
    ['market', 'Failed to load marketplace items.'],
  ])('the %s list load error reads %j', (type, text) => {
    expect(CONTENT_TYPE_INFO[type].loadError).toBe(text);
  });

  it.each<[ContentType, string, string]>([
    ['blog', 'No blog articles found.', 'No articles match your search criteria.'],
    ['course', 'No courses found.', 'No courses match your search criteria.'],
    ['tool', 'No tools found.', 'No tools found.'],
    ['market', 'No marketplace items found.', 'No items match your search criteria.'],
  ])('the %s empty states read %j and %j', (type, emptyAll, emptyFiltered) => {
    expect(CONTENT_TYPE_INFO[type]).toMatchObject({ emptyAll, emptyFiltered });
  });

  it('words the list failure message with the plural', () => {
    expect(listFailureMessage('blog')).toBe('Failed to load blogs. Please try again later.');
    expect(listFailureMessage('course')).toBe('Failed to load courses. Please try again later.');
  });

  it('words the detail failure message with the singular', () => {
    expect(detailFailureMessage('market')).toBe('Failed to load market item. Please try again later.');
    expect(detailFailureMessage('blog')).toBe('Failed to load blog. Please try again later.');
  });
});

describe('itemPath', () => {
  it.each<[ContentType, string]>([
    ['blog', '/blog/my-post'],
    ['course', '/courses/my-post'],
    ['tool', '/tools/my-post'],
    ['market', '/market/my-post'],
  ])('puts a %s detail page at %s', (type, path) => {
    expect(itemPath(type, 'my-post')).toBe(path);
  });
});
