import { describe, expect, it } from 'vitest';
import {
  buildPayload,
  changePayload,
  CREATE_TABS,
  createdToast,
  createFailedText,
  draftErrors,
  draftFromInput,
  EMPTY_DRAFT,
  listRoute,
  mediaTypeOf,
  newDraft,
  parseTags,
  standingErrors,
  takesBody,
  updatedToast,
  withGenerated,
} from './create-form.ts';

const valid = {
  ...EMPTY_DRAFT,
  title: 'Local SEO for bakeries',
  description: 'How a neighbourhood bakery gets found on maps.',
  tags: 'SEO, Local ,, ',
};

describe('the create form rules', () => {
  it('sends tags as trimmed, non-empty strings', () => {
    expect(parseTags(' SEO, Local ,, , Maps')).toEqual(['SEO', 'Local', 'Maps']);
    expect(parseTags('')).toEqual([]);
  });

  it('types media from the MIME type as the spec says', () => {
    expect(mediaTypeOf('image/png')).toBe('image');
    expect(mediaTypeOf('video/mp4')).toBe('video');
    expect(mediaTypeOf('application/pdf')).toBe('pdf');
    expect(mediaTypeOf('text/html')).toBeUndefined();
  });

  it('sends content for blogs only, and each type its own fields', () => {
    expect(buildPayload('blog', { ...valid, content: 'Body' })).toEqual({
      title: valid.title,
      description: valid.description,
      tags: ['SEO', 'Local'],
      accessLevel: 'free',
      media: [],
      content: 'Body',
    });
    expect(buildPayload('tool', { ...valid, content: 'Body', downloadUrl: ' downloads/kit.zip ' })).not.toHaveProperty('content');
    expect(buildPayload('market', { ...valid, price: '24', fileType: 'PDF' })).toMatchObject({ price: 24, fileType: 'PDF' });
    const course = buildPayload('course', {
      ...valid,
      duration: '2 weeks',
      sections: [
        {
          title: 'Getting Started!',
          lessons: [
            { title: 'First steps', content: 'Hello' },
            { title: '', content: '' },
          ],
        },
      ],
    });
    expect(course.sections).toEqual([
      {
        id: 'getting-started',
        title: 'Getting Started!',
        lessons: [
          { id: 'first-steps', title: 'First steps', content: 'Hello', media: [], downloadables: [] },
          { id: 'lesson-1-2', title: '', content: '', media: [], downloadables: [] },
        ],
      },
    ]);
  });

  it("checks with the server's schema and the spec's texts", () => {
    expect(draftErrors('blog', buildPayload('blog', valid))).toEqual({});
    const errors = draftErrors('blog', buildPayload('blog', { ...valid, title: 'ab', description: 'short' }));
    expect(errors.title).toBe('Title must be at least 3 characters');
    expect(errors.description).toBe('Description must be at least 10 characters');
    expect(draftErrors('market', buildPayload('market', { ...valid, price: 'abc' }))).toHaveProperty('price');
  });

  it("clears a field's error as soon as the field is valid, and no sooner", () => {
    const checked = { ...valid, title: 'ab', description: 'short' };
    const errors = draftErrors('blog', buildPayload('blog', checked));
    expect(Object.keys(errors).sort()).toEqual(['description', 'title']);
    // Still too short: the error stands; long enough: it goes, while the other field's stays.
    expect(standingErrors('blog', errors, checked, { ...checked, title: 'ab ' })).toEqual(errors);
    const titled = { ...checked, title: 'Bakery SEO' };
    expect(standingErrors('blog', errors, checked, titled)).toEqual({ description: 'Description must be at least 10 characters' });
    expect(standingErrors('blog', errors, checked, { ...titled, description: 'Long enough now.' })).toEqual({});
    // Editing another field, or one that had no error, never adds one before the next submit.
    expect(standingErrors('blog', errors, checked, { ...checked, tags: '' })).toEqual(errors);
    expect(standingErrors('blog', {}, checked, { ...checked, title: '' })).toEqual({});
  });

  it("keeps an error the schema cannot see (the server's) until its field changes", () => {
    const server = { downloadUrl: 'That host is not on the download list.' };
    const checked = { ...valid, downloadUrl: 'https://elsewhere.example/kit.zip' };
    expect(standingErrors('tool', server, checked, { ...checked, title: 'Another title' })).toEqual(server);
    expect(standingErrors('tool', server, checked, { ...checked, downloadUrl: 'downloads/kit.zip' })).toEqual({});
  });

  it('words the toasts and routes as the spec does', () => {
    expect(createdToast('blog', 'Hi there')).toEqual({ title: 'Blog created', description: '"Hi there" has been created successfully.' });
    expect(createdToast('market', 'Kit').title).toBe('Market item created');
    expect(createFailedText('market')).toBe('Failed to create market item. Please try again.');
    expect(createFailedText('course')).toBe('Failed to create course. Please try again.');
    expect(listRoute('blog')).toBe('/blog');
    expect(listRoute('market')).toBe('/market');
  });

  it('fills the form from an existing item, and sends it back as it was', () => {
    const input = {
      title: 'A course',
      description: 'A course about email marketing.',
      tags: ['Email', 'Shops'],
      accessLevel: 'subscriber',
      media: [],
      price: 49,
      duration: '2 weeks',
      skillLevel: 'advanced',
      sections: [{ id: 'start', title: 'Start', lessons: [{ id: 'one', title: 'One', content: 'Hello', media: [], downloadables: [] }] }],
    };
    const draft = draftFromInput(input);
    expect(draft).toMatchObject({
      tags: 'Email, Shops',
      price: '49',
      skillLevel: 'advanced',
      sections: [{ title: 'Start', lessons: [{ title: 'One', content: 'Hello' }] }],
    });
    expect(buildPayload('course', draft)).toEqual(input);
    // Renaming keeps the lesson's id: progress refers to it.
    draft.sections[0]!.lessons[0]!.title = 'Renamed';
    expect((buildPayload('course', draft).sections as { lessons: { id: string }[] }[])[0]!.lessons[0]!.id).toBe('one');
    expect(updatedToast('market', 'Kit')).toEqual({ title: 'Market item updated', description: '"Kit" has been updated successfully.' });
  });

  it("names its tabs as the types' definitions do, in the registry's order", () => {
    expect(CREATE_TABS).toEqual([
      { type: 'blog', label: 'Blog Post' },
      { type: 'tool', label: 'Tool' },
      { type: 'course', label: 'Course' },
      { type: 'market', label: 'Market Item' },
      { type: 'event', label: 'Event' },
    ]);
  });

  it("fills the form from an AI draft, and its body only where the type's form has one", () => {
    const generated = { title: 'Local SEO', description: 'A description long enough.', body: '## Why', tags: ['SEO', 'Maps'] };
    const before = { ...EMPTY_DRAFT, content: 'kept' };
    expect(takesBody('blog')).toBe(true);
    expect(withGenerated('blog', before, generated)).toMatchObject({ title: 'Local SEO', content: '## Why', tags: 'SEO, Maps' });
    for (const type of ['tool', 'course', 'market'] as const) {
      expect(takesBody(type)).toBe(false);
      expect(withGenerated(type, before, generated)).toMatchObject({ title: 'Local SEO', content: 'kept', tags: 'SEO, Maps' });
    }
  });

  it('sends for each type exactly the fields its definition lists', () => {
    const full = { ...valid, content: 'Body', downloadUrl: 'downloads/kit.zip', externalLink: 'https://example.com', price: '5' };
    const filled = { ...full, fileType: 'PDF', duration: '1 week' };
    const common = ['accessLevel', 'description', 'media', 'tags', 'title'];
    expect(Object.keys(buildPayload('blog', filled)).sort()).toEqual([...common, 'content'].sort());
    expect(Object.keys(buildPayload('tool', filled)).sort()).toEqual([...common, 'downloadUrl', 'externalLink'].sort());
    expect(Object.keys(buildPayload('market', filled)).sort()).toEqual(
      [...common, 'downloadUrl', 'externalLink', 'fileType', 'price'].sort(),
    );
    expect(Object.keys(buildPayload('course', filled)).sort()).toEqual([...common, 'duration', 'price', 'sections', 'skillLevel'].sort());
  });

  describe('an event', () => {
    const event = {
      ...newDraft('America/New_York'),
      title: 'Growth workshop',
      description: 'A hands-on workshop for members.',
      startsAt: '2027-03-30T12:00',
      joinUrl: ' https://meet.example/room ',
      address: 'Left over from an earlier draft',
      capacity: '25',
      content: 'What we will do.',
    };

    it("starts in the editor's own zone", () => {
      expect(newDraft('Europe/London').timeZone).toBe('Europe/London');
      expect(newDraft().timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    });

    it('sends its time as written with its zone, numbers as numbers, and only the place its format uses', () => {
      expect(buildPayload('event', event)).toEqual({
        title: 'Growth workshop',
        description: 'A hands-on workshop for members.',
        tags: [],
        accessLevel: 'free',
        media: [],
        startsAt: '2027-03-30T12:00',
        timeZone: 'America/New_York',
        durationMinutes: 60,
        format: 'online',
        joinUrl: 'https://meet.example/room',
        capacity: 25,
        cancelled: false,
        content: 'What we will do.',
      });
      expect(buildPayload('event', { ...event, format: 'in-person' })).toMatchObject({ address: 'Left over from an earlier draft' });
      expect(buildPayload('event', { ...event, format: 'in-person' })).not.toHaveProperty('joinUrl');
      expect(draftErrors('event', buildPayload('event', event))).toEqual({});
    });

    it("puts the rule across fields on the missing field, with the server's words", () => {
      expect(draftErrors('event', buildPayload('event', { ...event, joinUrl: '' }))).toEqual({
        joinUrl: 'An online event needs a join URL (https)',
      });
      expect(draftErrors('event', buildPayload('event', { ...event, format: 'in-person', address: '' }))).toEqual({
        address: 'An in-person event needs an address',
      });
      expect(
        Object.keys(draftErrors('event', buildPayload('event', { ...event, timeZone: 'Nowhere/Land', capacity: 'ten' }))).sort(),
      ).toEqual(['capacity', 'timeZone']);
    });

    it('fills the form from a stored event and sends it back as it was', () => {
      const input = buildPayload('event', event);
      expect(buildPayload('event', draftFromInput(input))).toEqual(input);
      expect(takesBody('event')).toBe(true);
    });

    it('removes, in a change, what the form left empty (a change is partial)', () => {
      const change = changePayload('event', buildPayload('event', { ...event, capacity: '', recordingUrl: '' }));
      expect(change).toMatchObject({ capacity: null, recordingUrl: null, address: null, host: null, startsAt: '2027-03-30T12:00' });
      expect(change.joinUrl).toBe('https://meet.example/room');
    });
  });
});
