import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineContentType, schemaAt, strictDeep, type ContentTypeSpec } from './content-type.ts';

const Lesson = z.object({ id: z.string().describe('Lesson id.'), body: z.string().default('') });
const Outline = z.object({
  title: z.string(),
  lessons: z.array(Lesson).min(1).describe('Lessons in order.'),
  cover: z.object({ url: z.string() }).optional(),
});

describe('strictDeep', () => {
  const strict = strictDeep(Outline);

  it('refuses unknown keys at the top, in array elements and in optional objects', () => {
    const result = strict.safeParse({ title: 'T', titel: 'x', lessons: [{ id: 'a', bdy: 'x' }], cover: { url: '/a', alt: 'x' } });
    expect(result.error?.issues.map((i) => `${i.path.join('.')}:${i.code}`).sort()).toEqual([
      ':unrecognized_keys',
      'cover:unrecognized_keys',
      'lessons.0:unrecognized_keys',
    ]);
  });

  it('keeps checks, defaults and descriptions', () => {
    expect(strict.safeParse({ title: 'T', lessons: [] }).success).toBe(false);
    expect(strict.parse({ title: 'T', lessons: [{ id: 'a' }] }).lessons[0]?.body).toBe('');
    expect(strict.shape.lessons.description).toBe('Lessons in order.');
    const json = z.toJSONSchema(strict) as unknown as {
      properties: { lessons: { items: { properties: { id: { description?: string } } } } };
    };
    expect(json.properties.lessons.items.properties.id.description).toBe('Lesson id.');
  });

  it('leaves the original lenient', () => {
    expect(Outline.parse({ title: 'T', extra: 1, lessons: [{ id: 'a', more: 2 }] })).toEqual({
      title: 'T',
      lessons: [{ id: 'a', body: '' }],
    });
  });
});

describe('schemaAt', () => {
  it('finds fields through arrays, optionals and defaults', () => {
    expect(schemaAt(Outline, 'lessons.body')).toBe(Lesson.shape.body);
    expect(schemaAt(Outline, 'cover.url')).toBeDefined();
    expect(schemaAt(Outline, 'title')).toBe(Outline.shape.title);
  });

  it.each(['nope', 'title.length', 'lessons.nope', 'toString', 'lessons.constructor'])('returns undefined for %j', (path) => {
    expect(schemaAt(Outline, path)).toBeUndefined();
  });
});

type Spec = ContentTypeSpec<
  'note',
  { body: z.ZodString },
  Record<never, never>,
  { body: z.ZodString },
  { summary: z.ZodOptional<z.ZodString> }
>;

/** A small valid definition to vary. */
function makeSpec(overrides: Partial<Spec> = {}): Spec {
  return {
    type: 'note',
    folder: 'notes',
    apiSegment: 'notes',
    path: '/notes',
    labels: {
      singular: 'note',
      plural: 'notes',
      listTitle: 'Notes',
      listIntro: 'Notes.',
      loadError: 'Failed to load notes.',
      emptyAll: 'No notes found.',
      emptyFiltered: 'No notes match.',
      searchPlaceholder: 'Search notes…',
      name: 'Note',
      itemLabel: 'Note',
    },
    filters: ['search'],
    frontmatter: { body: z.string() },
    input: {},
    fields: { body: z.string() },
    publicFields: { summary: z.string().optional() },
    gated: ['body'],
    createFields: [],
    drafting: { title: '{subject} Notes', description: 'Notes on {topic}.', outline: 'guide', fallbackTag: 'Notes' },
    fromFrontmatter: (fm) => ({ body: fm.body }),
    fromInput: (input) => ({ body: input.body }),
    ...overrides,
  };
}

describe('defineContentType', () => {
  it('adds the common fields and makes the frontmatter strict', () => {
    const note = defineContentType(makeSpec());
    const fm = { title: 'A note', description: 'A note long enough.', body: 'x' };
    expect(note.frontmatter.parse(fm)).toMatchObject({ tags: [], accessLevel: 'free', media: [] });
    expect(note.frontmatter.safeParse({ ...fm, bdy: 'x' }).success).toBe(false);
    expect(note.input.parse({ ...fm, bdy: 'x' })).not.toHaveProperty('bdy');
  });

  it('builds item and public schemas with the type and the common fields', () => {
    const note = defineContentType(makeSpec());
    const item = {
      id: 'n',
      slug: 'n',
      title: 'N',
      description: 'D',
      tags: [],
      accessLevel: 'free',
      media: [],
      type: 'note',
      source: 'mdx',
      body: 'secret',
    };
    expect(note.item.parse(item)).toEqual(item);
    expect(note.public.parse(item)).toEqual({
      id: 'n',
      slug: 'n',
      title: 'N',
      description: 'D',
      tags: [],
      accessLevel: 'free',
      media: [],
      type: 'note',
    });
    expect(note.publicStrict.safeParse(item).success).toBe(false);
  });

  it('refuses a gated path that is not one of the fields', () => {
    expect(() => defineContentType(makeSpec({ gated: ['bodyy' as 'body'] }))).toThrow(/gated field "bodyy" is not one of its fields/);
  });

  it('refuses a gated field that is also public', () => {
    const spec = makeSpec({ publicFields: { summary: z.string().optional(), body: z.string() } as Spec['publicFields'] });
    expect(() => defineContentType(spec)).toThrow(/gated field "body" is public/);
  });
});
