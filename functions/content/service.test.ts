import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentInputOf, ContentType } from '#shared/content/registry.ts';
import { toDateOnly } from '#shared/content/schema.ts';
import { openDatabase, type Database } from '../platform/db/client.ts';
import { contentItems, type NewContentRow } from './tables.ts';
import { AppError } from '../platform/errors.ts';
import { createMdxSource, type MdxSource } from './mdx-source.ts';
import { createContentService, type ContentService } from './service.ts';
import { CONTENT_CHANNEL, createContentStore } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MDX_SLUG = 'taken-by-mdx';
const MDX_DATE = '2026-01-15';

function makeBlogInput(overrides: Partial<ContentInputOf<'blog'>> = {}): ContentInputOf<'blog'> {
  return {
    title: 'Database article',
    description: 'An article written in the creator tools.',
    tags: ['Testing'],
    content: 'The gated body of a database article.',
    ...overrides,
  };
}

function makeCourseInput(overrides: Partial<ContentInputOf<'course'>> = {}): ContentInputOf<'course'> {
  return { title: 'Database course', description: 'A course written in the creator tools.', ...overrides };
}

function makeToolInput(overrides: Partial<ContentInputOf<'tool'>> = {}): ContentInputOf<'tool'> {
  return { title: 'Database tool', description: 'A tool written in the creator tools.', ...overrides };
}

function makeMarketInput(overrides: Partial<ContentInputOf<'market'>> = {}): ContentInputOf<'market'> {
  return { title: 'Database market item', description: 'A market item from the creator tools.', ...overrides };
}

/** A blog row written straight to the table, bypassing the service's checks. */
function makeBlogRow(overrides: Partial<NewContentRow> = {}): NewContentRow {
  return {
    type: 'blog',
    slug: 'raw-row',
    title: 'Raw row',
    description: 'A row inserted without the service.',
    details: { publishedDate: '2026-06-01', content: 'Row body', contentFormat: 'markdown' },
    ...overrides,
  };
}

/** The AppError a promise rejects with; fails the test when it resolves or rejects with something else. */
async function appError(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    () => new Error('expected the call to fail'),
    (err: unknown) => err,
  );
  if (outcome instanceof AppError) return outcome;
  throw outcome;
}

/** Today's date as the service writes it; two candidates in case the test straddles midnight UTC. */
function todayCandidates(before: Date): string[] {
  return [toDateOnly(before), toDateOnly(new Date())];
}

describe('content service', () => {
  const logger = pino({ level: 'silent' });
  let database: Database;
  let dir: string;
  let mdx: MdxSource;
  let service: ContentService;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' }, logger);
    dir = await mkdtemp(path.join(os.tmpdir(), 'content-service-'));
    await mkdir(path.join(dir, 'blog'));
    await writeFile(
      path.join(dir, 'blog', `${MDX_SLUG}.md`),
      `---\ntitle: Taken by MDX\ndescription: An article that lives in git.\npublishedDate: ${MDX_DATE}\n---\n\nMDX body.\n`,
    );
    mdx = await createMdxSource(dir);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await database.db.delete(contentItems);
    service = createContentService({ db: database.db, mdx, logger });
  });

  describe('create', () => {
    it('stores a database item with a uuid and a slug made from the title', async () => {
      const item = await service.create('blog', makeBlogInput({ title: 'Hello, Growth World!' }));
      expect(item.id).toMatch(UUID);
      expect(item).toMatchObject({ type: 'blog', slug: 'hello-growth-world', source: 'db', title: 'Hello, Growth World!' });
      expect(await service.get('blog', 'hello-growth-world')).toEqual(item);
    });

    it('dates a blog article today and credits the team when no date or author is given', async () => {
      const before = new Date();
      const item = await service.create('blog', makeBlogInput());
      expect(item).toMatchObject({ author: 'Beacon Growth Team', accessLevel: 'free', media: [], contentFormat: 'markdown' });
      expect(todayCandidates(before)).toContain(item.type === 'blog' && item.publishedDate);
    });

    it('keeps a given publication date and author', async () => {
      const item = await service.create('blog', makeBlogInput({ publishedDate: '2025-11-30', author: 'Ann Lee' }));
      expect(item).toMatchObject({ publishedDate: '2025-11-30', author: 'Ann Lee' });
    });

    it('gives a course a self-paced, beginner, empty curriculum by default', async () => {
      expect(await service.create('course', makeCourseInput())).toMatchObject({
        type: 'course',
        duration: 'Self-paced',
        skillLevel: 'beginner',
        sections: [],
      });
    });

    it('gives a market item the "Digital download" file type and no price by default', async () => {
      const item = await service.create('market', makeMarketInput());
      expect(item).toMatchObject({ type: 'market', fileType: 'Digital download' });
      expect(item).not.toHaveProperty('price');
    });

    it('dates a tool as updated today', async () => {
      const before = new Date();
      const item = await service.create('tool', makeToolInput());
      expect(todayCandidates(before)).toContain(item.type === 'tool' && item.updatedAt);
    });

    it('numbers the slug when the title was used before', async () => {
      const first = await service.create('tool', makeToolInput({ title: 'Same Title' }));
      const second = await service.create('tool', makeToolInput({ title: 'Same Title' }));
      const third = await service.create('tool', makeToolInput({ title: 'Same Title' }));
      expect([first.slug, second.slug, third.slug]).toEqual(['same-title', 'same-title-2', 'same-title-3']);
    });

    it('numbers the slug when an MDX file already uses it', async () => {
      expect((await service.create('blog', makeBlogInput({ title: 'Taken by MDX' }))).slug).toBe(`${MDX_SLUG}-2`);
    });

    it('lets another type reuse a slug', async () => {
      await service.create('blog', makeBlogInput({ title: 'Shared' }));
      expect((await service.create('tool', makeToolInput({ title: 'Shared' }))).slug).toBe('shared');
    });

    it('refuses an explicit slug already used by a database item with a conflict', async () => {
      await service.create('blog', makeBlogInput({ slug: 'chosen' }));
      const error = await appError(service.create('blog', makeBlogInput({ slug: 'chosen' })));
      expect(error.code).toBe('conflict');
      expect(error.fields).toHaveProperty('slug');
    });

    it('refuses an explicit slug already used by an MDX file with a conflict', async () => {
      expect((await appError(service.create('blog', makeBlogInput({ slug: MDX_SLUG })))).code).toBe('conflict');
    });

    it('rejects invalid input naming each bad field', async () => {
      const error = await appError(service.create('blog', makeBlogInput({ title: 'ab', description: 'short' })));
      expect(error.code).toBe('validation_failed');
      expect(Object.keys(error.fields ?? {}).sort()).toEqual(['description', 'title']);
    });

    it('rejects input that is not an object', async () => {
      expect((await appError(service.create('market', null))).code).toBe('validation_failed');
    });

    it('records who created the item', async () => {
      const item = await service.create('blog', makeBlogInput(), { createdBy: 'user-42' });
      const row = await createContentStore(database.db).findById(item.id);
      expect(row?.createdBy).toBe('user-42');
    });
  });

  describe('list and get', () => {
    it('merges MDX and database items in list order', async () => {
      await service.create('blog', makeBlogInput({ title: 'Newer', publishedDate: '2026-02-01' }));
      await service.create('blog', makeBlogInput({ title: 'Older', publishedDate: '2025-12-01' }));
      const list = await service.list('blog');
      expect(list.map((i) => [i.slug, i.source])).toEqual([
        ['newer', 'db'],
        [MDX_SLUG, 'mdx'],
        ['older', 'db'],
      ]);
    });

    it('lists only the requested type', async () => {
      await service.create('tool', makeToolInput({ title: 'A tool' }));
      expect((await service.list('tool')).map((i) => i.slug)).toEqual(['a-tool']);
      expect((await service.list('blog')).map((i) => i.slug)).toEqual([MDX_SLUG]);
    });

    it('hides a database row whose slug an MDX file also uses', async () => {
      await createContentStore(database.db).insert(makeBlogRow({ slug: MDX_SLUG, title: 'Shadowed row' }));
      const list = await service.list('blog');
      expect(list.map((i) => [i.slug, i.source])).toEqual([[MDX_SLUG, 'mdx']]);
      expect((await service.get('blog', MDX_SLUG))?.source).toBe('mdx');
    });

    it('gets an item by slug from either source', async () => {
      await service.create('blog', makeBlogInput({ title: 'From the database' }));
      expect((await service.get('blog', 'from-the-database'))?.source).toBe('db');
      expect((await service.get('blog', MDX_SLUG))?.source).toBe('mdx');
    });

    it('returns undefined for an unknown slug or a slug of another type', async () => {
      await service.create('tool', makeToolInput({ title: 'Only a tool' }));
      expect(await service.get('blog', 'no-such-item')).toBeUndefined();
      expect(await service.get('blog', 'only-a-tool')).toBeUndefined();
      expect(await service.get('tool', MDX_SLUG)).toBeUndefined();
    });

    it('skips and logs a row whose details no longer validate', async () => {
      const watched = pino({ level: 'silent' });
      const errorLog = vi.spyOn(watched, 'error');
      const watchedService = createContentService({ db: database.db, mdx, logger: watched });
      const corrupt = await createContentStore(database.db).insert(makeBlogRow({ slug: 'corrupt', details: {} }));
      await watchedService.create('blog', makeBlogInput({ title: 'Healthy', publishedDate: '2026-03-01' }));

      const list = await watchedService.list('blog');
      expect(list.map((i) => i.slug)).toEqual(['healthy', MDX_SLUG]);
      expect(await watchedService.get('blog', 'corrupt')).toBeUndefined();
      expect(errorLog).toHaveBeenCalledWith(expect.objectContaining({ id: corrupt.id, type: 'blog' }), expect.any(String));
    });
  });

  describe('update', () => {
    it('applies a partial change and keeps the other fields', async () => {
      const created = await service.create('blog', makeBlogInput({ title: 'Before', publishedDate: '2025-05-05', tags: ['A'] }));
      const updated = await service.update('blog', created.id, { title: 'After' });
      expect(updated).toMatchObject({
        id: created.id,
        slug: 'before',
        title: 'After',
        publishedDate: '2025-05-05',
        tags: ['A'],
        content: 'The gated body of a database article.',
      });
      expect((await service.get('blog', 'before'))?.title).toBe('After');
    });

    it('validates the merged result', async () => {
      const created = await service.create('course', makeCourseInput());
      const error = await appError(service.update('course', created.id, { title: 'ab', skillLevel: 'expert' }));
      expect(error.code).toBe('validation_failed');
      expect(Object.keys(error.fields ?? {}).sort()).toEqual(['skillLevel', 'title']);
      expect((await service.get('course', created.slug))?.title).toBe('Database course');
    });

    it('changes the slug', async () => {
      const created = await service.create('tool', makeToolInput({ title: 'Old name' }));
      const updated = await service.update('tool', created.id, { slug: 'new-name' });
      expect(updated.slug).toBe('new-name');
      expect(await service.get('tool', 'old-name')).toBeUndefined();
      expect((await service.get('tool', 'new-name'))?.id).toBe(created.id);
    });

    it('refuses a slug used by another database item with a conflict', async () => {
      await service.create('tool', makeToolInput({ title: 'First' }));
      const second = await service.create('tool', makeToolInput({ title: 'Second' }));
      expect((await appError(service.update('tool', second.id, { slug: 'first' }))).code).toBe('conflict');
    });

    it('refuses a slug used by an MDX file with a conflict', async () => {
      const created = await service.create('blog', makeBlogInput());
      expect((await appError(service.update('blog', created.id, { slug: MDX_SLUG }))).code).toBe('conflict');
    });

    it.each([
      ['an unknown id', () => '00000000-0000-4000-8000-000000000000'],
      ['an id that is not a uuid', () => 'not-a-uuid'],
    ])('answers not_found for %s', async (_name, id) => {
      expect((await appError(service.update('blog', id(), { title: 'Anything' }))).code).toBe('not_found');
    });

    it('answers not_found for the id of another type', async () => {
      const tool = await service.create('tool', makeToolInput());
      expect((await appError(service.update('blog', tool.id, { title: 'Anything' }))).code).toBe('not_found');
    });
  });

  describe('publish and unpublish', () => {
    it('hides an unpublished item from lists and slug reads, and shows it again once published', async () => {
      const created = await service.create('blog', makeBlogInput({ title: 'Now you see it' }));
      await service.update('blog', created.id, { published: false });
      expect(await service.get('blog', 'now-you-see-it')).toBeUndefined();
      expect((await service.list('blog')).map((i) => i.slug)).not.toContain('now-you-see-it');
      await service.update('blog', created.id, { published: true });
      expect(await service.get('blog', 'now-you-see-it')).toMatchObject({ id: created.id, title: 'Now you see it' });
    });

    it('lists unpublished items in the catalogue and the edit form, marked as such', async () => {
      const created = await service.create('course', makeCourseInput({ title: 'Draft course' }), { createdBy: 'editor-1' });
      await service.update('course', created.id, { published: false });
      const entry = (await service.catalog()).find((i) => i.id === created.id);
      expect(entry).toMatchObject({ published: false, source: 'db', createdBy: 'editor-1' });
      expect(await service.editable('course', created.id)).toMatchObject({ published: false, input: { title: 'Draft course' } });
      expect((await service.catalog()).filter((i) => i.source === 'mdx').every((i) => i.published)).toBe(true);
    });

    it('creates an item unpublished when asked, and it keeps its slug reserved', async () => {
      await service.create('blog', { ...makeBlogInput({ title: 'Quiet draft' }), published: false });
      expect((await service.list('blog')).filter((i) => i.source === 'db')).toEqual([]);
      const next = await service.create('blog', makeBlogInput({ title: 'Quiet draft' }));
      expect(next.slug).toBe('quiet-draft-2');
      expect((await appError(service.create('blog', makeBlogInput({ slug: 'quiet-draft' })))).code).toBe('conflict');
    });

    it('changes nothing else, not even a tool\'s "updated" date', async () => {
      const created = await service.create('tool', makeToolInput({ title: 'Dated tool', updatedAt: '2026-01-02' }));
      await service.update('tool', created.id, { published: false });
      await service.update('tool', created.id, { published: true });
      expect(await service.get('tool', created.slug)).toEqual(created);
    });

    it('writes only the flag, so an edit saved meanwhile is kept', async () => {
      const created = await service.create('blog', makeBlogInput({ title: 'Before the edit' }));
      const transaction = database.db.transaction.bind(database.db);
      // Another editor's save lands between the unpublish's read and its write.
      const spy = vi.spyOn(database.db, 'transaction').mockImplementationOnce((async (fn: Parameters<typeof transaction>[0]) => {
        await database.db.update(contentItems).set({ title: 'Saved meanwhile' }).where(eq(contentItems.id, created.id));
        return transaction(fn);
      }) as typeof database.db.transaction);
      await service.update('blog', created.id, { published: false });
      spy.mockRestore();
      await service.update('blog', created.id, { published: true });
      expect(await service.get('blog', created.slug)).toMatchObject({ title: 'Saved meanwhile' });
    });

    it('refuses a published value that is not true or false', async () => {
      const created = await service.create('blog', makeBlogInput());
      for (const published of ['false', 0, null]) {
        const err = await appError(service.update('blog', created.id, { published }));
        expect(err.code).toBe('validation_failed');
        expect(err.fields).toEqual({ published: ['Must be true or false'] });
      }
      expect(await service.get('blog', created.slug)).toBeDefined();
    });

    it('lets an editor unpublish only their own items', async () => {
      const created = await service.create('blog', makeBlogInput(), { createdBy: 'editor-1' });
      const other = { id: 'editor-2', admin: false };
      expect((await appError(service.update('blog', created.id, { published: false }, other))).code).toBe('forbidden');
      await service.update('blog', created.id, { published: false }, { id: 'editor-1', admin: false });
      expect(await service.get('blog', created.slug)).toBeUndefined();
    });
  });

  describe('remove', () => {
    it('deletes the item', async () => {
      const created = await service.create('market', makeMarketInput({ title: 'Going away' }));
      await service.remove('market', created.id);
      expect(await service.get('market', 'going-away')).toBeUndefined();
      expect(await service.list('market')).toEqual([]);
    });

    it('answers not_found when the item does not exist', async () => {
      const created = await service.create('market', makeMarketInput());
      await service.remove('market', created.id);
      expect((await appError(service.remove('market', created.id))).code).toBe('not_found');
      expect((await appError(service.remove('market', 'not-a-uuid'))).code).toBe('not_found');
    });

    it('answers not_found for the id of another type and keeps the item', async () => {
      const created = await service.create('market', makeMarketInput({ title: 'Kept' }));
      expect((await appError(service.remove('tool', created.id))).code).toBe('not_found');
      expect(await service.get('market', 'kept')).toBeDefined();
    });
  });

  describe('change notices', () => {
    it('tells listeners after each create, update and remove', async () => {
      const seen: ContentType[] = [];
      service.onChange((type) => seen.push(type));
      const created = await service.create('course', makeCourseInput());
      await service.update('course', created.id, { duration: '3 weeks' });
      await service.remove('course', created.id);
      expect(seen).toEqual(['course', 'course', 'course']);
    });

    it('stays silent when a write fails', async () => {
      const created = await service.create('blog', makeBlogInput({ slug: 'exists' }));
      const listener = vi.fn();
      service.onChange(listener);
      await appError(service.create('blog', makeBlogInput({ title: 'x' })));
      await appError(service.create('blog', makeBlogInput({ slug: 'exists' })));
      await appError(service.update('blog', created.id, { description: 'short' }));
      await appError(service.update('blog', created.id, { slug: MDX_SLUG }));
      await appError(service.remove('blog', '00000000-0000-4000-8000-000000000000'));
      expect(listener).not.toHaveBeenCalled();
    });

    it('stops telling a listener that unsubscribed', async () => {
      const listener = vi.fn();
      const unsubscribe = service.onChange(listener);
      unsubscribe();
      await service.create('tool', makeToolInput());
      expect(listener).not.toHaveBeenCalled();
    });

    it('announces each write on the database channel for other instances', async () => {
      const payloads: string[] = [];
      const stop = await database.listen(CONTENT_CHANNEL, (payload) => payloads.push(payload));
      try {
        await service.create('market', makeMarketInput());
        await vi.waitFor(() => expect(payloads).toEqual(['market']));
      } finally {
        await stop();
      }
    });
  });
});
