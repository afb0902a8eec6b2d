/**
 * The gated parts of content, behind the one access rule (`checkAccess`, src/lib/shared/access.ts): article
 * bodies, lessons (text, media, files) and downloads. Rendered HTML is cached per item until content
 * changes (the same signals that clear the public cache); signed file links are made per request, as
 * they expire. Every answer here belongs to one viewer and is never put in a shared cache.
 */
import { checkAccess, type AccessLevel, type Viewer } from '#shared/access.ts';
import {
  CONTENT_REGISTRY,
  isPurchasable,
  type ContentType,
  type CourseItem,
  type DownloadType,
  type Lesson,
  type PurchasableType,
} from '#shared/content/registry.ts';
import { itemAccess, type PricedItem } from '#shared/payments/purchasable.ts';
import { AppError } from '../../platform/errors.ts';
import { createAnswer, type CachedAnswer } from '../../platform/http/respond.ts';
import type { FileService, SignedLink } from '../../files/index.ts';
import { remember } from '../cache.ts';
import { splitPreview, type RenderBody } from '../body.ts';
import type { ContentService } from '../service.ts';

/** Lesson media links live long enough to watch a video; download links only long enough to start one. */
export const MEDIA_LINK_SECONDS = 3600;
export const DOWNLOAD_LINK_SECONDS = 600;

/** One item of a type as these answers name it ("Article not found"), from its definition. */
const label = (type: ContentType) => CONTENT_REGISTRY[type].labels.itemLabel;

/** A whole article (preview included) as sanitised HTML: what the cached body answer holds. */
export interface ArticleBody {
  html: string;
}

/** Start-up renders every body as staff would read it: priced items sold only to buyers included. */

interface RenderedArticle {
  accessLevel: AccessLevel;
  html: string;
  answer: CachedAnswer<ArticleBody>;
}

/** A lesson of a loaded course; its HTML is rendered on first read (and again after a failure). */
interface LessonEntry {
  lesson: Lesson;
  sectionId: string;
  html?: Promise<string>;
}

interface RenderedCourse {
  item: CourseItem;
  lessons: Map<string, LessonEntry>;
}

export interface LessonAnswer {
  id: string;
  title: string;
  sectionId: string;
  content: string;
  media: { url: string; type: 'image' | 'video' | 'pdf'; alt?: string }[];
  downloadables: { name: string; url: string }[];
}

/**
 * Enforces the access rule for one item: 401 for visitors, 403 naming the level for members below it.
 * Callers look the item up first, so unknown items are 404 for everyone signed in.
 */
export function assertAccess(viewer: Viewer, required: AccessLevel, what: string): void {
  const decision = checkAccess(viewer, required);
  if (decision.allowed) return;
  if (decision.reason === 'login_required')
    throw new AppError('unauthorized', 'Please sign in.', { headers: { 'WWW-Authenticate': 'Bearer' } });
  const level = required === 'premium' ? 'premium members' : 'subscribers';
  throw new AppError('forbidden', `This ${what} is available to ${level}. Upgrade your plan to open it.`, { requiredLevel: required });
}

export interface GatedContentDeps {
  content: ContentService;
  files: FileService;
  /** Renders article bodies and lessons (the server's staff renderer: never the server's own thread). */
  render: RenderBody;
}

/** What gated content asks of payments, connected by compose.ts once both exist (`gated.connect`). */
export interface GatedHooks {
  /** Whether the member bought the item (one-time purchases open it whatever their level). */
  owns: (userId: string, type: PurchasableType, slug: string) => Promise<boolean>;
}

/** 404 for an item of this type that no source has. */
const notFound = (type: ContentType) => new AppError('not_found', `${label(type)} not found`);

/**
 * The purchase rule (`itemAccess`, the one rule for every type that can carry a price), then a
 * purchase of the item, asked only when the rule says no. A priced item at the free level is in no
 * plan: only buyers (and staff) open it; a priced item at a paid level opens to its plan too.
 */
async function assertItemAccess(
  owns: GatedHooks['owns'] | undefined,
  viewer: (NonNullable<Viewer> & { id?: string }) | null,
  item: PricedItem & { type: PurchasableType; slug: string },
  what: string,
) {
  const decision = itemAccess(viewer, item);
  if (decision.allowed) return;
  if (viewer?.id && owns && (await owns(viewer.id, item.type, item.slug))) return;
  if (decision.reason === 'purchase_required')
    throw new AppError('forbidden', `Buy this ${label(item.type).toLowerCase()} to open its ${what}.`);
  assertAccess(viewer, item.accessLevel, what);
}

/** A lesson's HTML, rendered once and shared by concurrent readers; a failed render is tried again on the next read. */
function lessonHtml(render: RenderBody, entry: LessonEntry): Promise<string> {
  if (!entry.lesson.content) return Promise.resolve('');
  const html = (entry.html ??= render(entry.lesson.content, 'markdown'));
  void html.catch(() => entry.html === html && delete entry.html);
  return html;
}

/** A lesson's media (private ones as signed links) and its files as signed links. */
async function signedFiles(files: FileService, lesson: LessonEntry['lesson']): Promise<Pick<LessonAnswer, 'media' | 'downloadables'>> {
  const [media, downloadables] = await Promise.all([
    Promise.all(lesson.media.map(async (m) => ({ ...m, url: await files.mediaUrl(m.url, MEDIA_LINK_SECONDS) }))),
    Promise.all(
      lesson.downloadables.map(async (d) => ({ name: d.name, url: (await files.signedDownload(d.url, DOWNLOAD_LINK_SECONDS)).url })),
    ),
  ]);
  return { media, downloadables };
}

/**
 * What this instance keeps: articles rendered (promises, and the ones loaded so a member's read needs
 * no waiting; `clears` keeps a render begun before a change out) and courses read.
 */
interface KeptBodies {
  articles: Map<string, Promise<RenderedArticle | undefined>>;
  loaded: Map<string, RenderedArticle>;
  courses: Map<string, Promise<RenderedCourse | undefined>>;
  clears: number;
}

/** What the gated parts share: the dependencies, the kept bodies and payments' hook once connected (until then nothing is open by purchase). */
interface GatedParts extends GatedContentDeps {
  kept: KeptBodies;
  connected: { owns?: GatedHooks['owns'] };
}

/** A course and its lessons by id, read once and shared. */
function course({ content, kept }: GatedParts, slug: string) {
  return remember(kept.courses, slug, async () => {
    const item = await content.get('course', slug);
    if (!item) return undefined;
    const lessons = new Map<string, LessonEntry>();
    for (const section of item.sections) for (const lesson of section.lessons) lessons.set(lesson.id, { lesson, sectionId: section.id });
    return { item, lessons };
  });
}

/** An article rendered once and shared, after the access rule (404 when no source has it). */
async function article({ content, render, kept }: GatedParts, viewer: Viewer, slug: string) {
  const found = await remember(kept.articles, slug, async () => {
    const generation = kept.clears;
    const item = await content.get('blog', slug);
    if (!item) return undefined;
    const html = await render(splitPreview(item.content).body, item.contentFormat);
    const rendered = { accessLevel: item.accessLevel, html, answer: createAnswer({ html }) };
    if (generation === kept.clears) kept.loaded.set(slug, rendered);
    return rendered;
  });
  if (!found) throw notFound('blog');
  assertAccess(viewer, found.accessLevel, label('blog').toLowerCase());
  return found;
}

/** A lesson of a course the viewer may open (404 for an unknown course or lesson). */
async function lessonEntry(deps: GatedParts, viewer: Viewer, slug: string, lessonId: string) {
  const { connected } = deps;
  const found = await course(deps, slug);
  if (!found) throw notFound('course');
  const entry = found.lessons.get(lessonId);
  if (!entry) throw new AppError('not_found', 'Lesson not found');
  await assertItemAccess(connected.owns, viewer, found.item, 'lesson');
  return entry;
}

export function createGatedContent({ content, files, render }: GatedContentDeps) {
  const deps: GatedParts = {
    content,
    files,
    render,
    kept: { articles: new Map(), loaded: new Map(), courses: new Map(), clears: 0 },
    connected: {},
  };
  const { kept, connected } = deps;

  return {
    /** Payments' side of access (what a member bought), connected once every service exists. */
    connect(hooks: GatedHooks): void {
      connected.owns = hooks.owns;
    },
    /**
     * The whole article (preview included) as the serialised answer `{ html }` of sanitised HTML,
     * made once and shared by every viewer who passes the access check.
     */
    async articleBody(viewer: Viewer, slug: string): Promise<CachedAnswer<ArticleBody>> {
      return (await article(deps, viewer, slug)).answer;
    },

    /**
     * articleBody without waiting: the answer when the article is already rendered and the viewer
     * passes the access rule, else undefined (then articleBody answers, or says why not).
     */
    loadedArticleBody(viewer: Viewer, slug: string): CachedAnswer<ArticleBody> | undefined {
      const found = kept.loaded.get(slug);
      return found && checkAccess(viewer, found.accessLevel).allowed ? found.answer : undefined;
    },

    /** The whole article's HTML (the member feed). */
    async articleHtml(viewer: Viewer, slug: string): Promise<string> {
      return (await article(deps, viewer, slug)).html;
    },

    /** One lesson: its text as HTML, its media (private ones as signed links) and its files as signed links. */
    async lesson(viewer: Viewer, slug: string, lessonId: string): Promise<LessonAnswer> {
      const entry = await lessonEntry(deps, viewer, slug, lessonId);
      const { lesson, sectionId } = entry;
      const html = await lessonHtml(render, entry);
      const { media, downloadables } = await signedFiles(files, lesson);
      return { id: lesson.id, title: lesson.title, sectionId, content: html, media, downloadables };
    },

    /** A fresh signed link to a lesson's file number `index`. */
    async lessonDownload(viewer: Viewer, slug: string, lessonId: string, index: number): Promise<SignedLink> {
      const { lesson } = await lessonEntry(deps, viewer, slug, lessonId);
      const file = lesson.downloadables[index];
      if (!file) throw new AppError('not_found', 'This lesson has no such file.');
      return files.signedDownload(file.url, DOWNLOAD_LINK_SECONDS);
    },

    /** A signed link to the file of an item of a download type (tools, market items). */
    async itemDownload(viewer: Viewer, type: DownloadType, slug: string): Promise<SignedLink> {
      const item = await content.get(type, slug);
      if (!item) throw notFound(type);
      // A type sold one at a time opens to its buyers too; the others follow the level rule alone.
      if (isPurchasable(item)) await assertItemAccess(connected.owns, viewer, item, 'download');
      else assertAccess(viewer, item.accessLevel, 'download');
      if (!item.downloadUrl) throw new AppError('not_found', 'This item has no file to download.');
      return files.signedDownload(item.downloadUrl, DOWNLOAD_LINK_SECONDS);
    },

    /** The course and its lessons in order (for progress), after the access check. */
    async courseFor(viewer: Viewer, slug: string): Promise<CourseItem> {
      const found = await course(deps, slug);
      if (!found) throw notFound('course');
      await assertItemAccess(connected.owns, viewer, found.item, 'course');
      return found.item;
    },

    /** Drops rendered bodies (content changed here or on another instance). */
    clear(): void {
      kept.clears += 1;
      kept.articles.clear();
      kept.loaded.clear();
      kept.courses.clear();
    },
  };
}

export type GatedContent = ReturnType<typeof createGatedContent>;
