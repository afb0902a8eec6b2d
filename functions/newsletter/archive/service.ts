/**
 * The newsletter's web archive: issues that went out, newest first, each with its public part (above
 * the author's preview line) for everyone, and the whole body behind the one access rule, like an
 * article's (`GET /api/newsletter/issues/{slug}/body`: no token 401, unknown issue 404, level too low
 * 403 naming the level). An issue that went out never changes, so each renders once and is kept.
 */
import { ACCESS_LEVELS, checkAccess, type Viewer } from '#shared/access.ts';
import { beyondOf, type SourceMatches } from '#shared/search.ts';
import type { ArchivedIssue, ArchivedIssuePage, NewsletterArchiveReader } from '#shared/newsletter.ts';
import { splitPreview, type RenderBody } from '../../content/index.ts';
import { AppError } from '../../platform/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { assertAccess } from '../../content/index.ts';
import { createArchiveStore } from './store.ts';
import type { IssueRow } from '../tables.ts';

/** Issues the archive lists at most. */
const ARCHIVE_SIZE = 500;
/** Rendered issues kept (each renders once: sent issues never change). */
const KEPT = 200;

function archived(row: IssueRow): ArchivedIssue {
  return {
    slug: row.slug,
    subject: row.subject,
    previewText: row.previewText,
    accessLevel: row.accessLevel,
    sentAt: (row.sentAt ?? row.updatedAt).toISOString(),
  };
}

/** A small map of renders that forgets its oldest entry past `KEPT`, and a render that failed (tried again next time). */
function keep<V>(map: Map<string, Promise<V>>, key: string, make: () => Promise<V>): Promise<V> {
  const found = map.get(key);
  if (found !== undefined) return found;
  const value = make();
  if (map.size >= KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
  void value.catch(() => map.get(key) === value && map.delete(key));
  return value;
}

export interface NewsletterArchiveDeps {
  db: DbOrTx;
  /** Renders issues' bodies (the server's staff renderer, off the server's thread). */
  render: RenderBody;
}

export function createNewsletterArchive({ db, render }: NewsletterArchiveDeps) {
  const publicParts = new Map<string, Promise<{ html: string; gated: boolean }>>();
  const bodies = new Map<string, Promise<{ html: string }>>();

  const publicPart = (row: IssueRow) =>
    keep(publicParts, row.id, async () => {
      const { preview, body } = splitPreview(row.body);
      const rest = preview ? body.slice(preview.length).trim() : body;
      return { html: preview ? await render(preview, 'markdown') : '', gated: rest.length > 0 };
    });

  const pageOf = async (row: IssueRow): Promise<ArchivedIssuePage> => {
    const part = await publicPart(row);
    return { ...archived(row), publicHtml: part.html, gated: part.gated };
  };

  const reader: NewsletterArchiveReader = {
    async list() {
      return (await createArchiveStore(db).list(ARCHIVE_SIZE)).map(archived);
    },
    async page(slug) {
      const row = await createArchiveStore(db).bySlug(slug);
      return row && (await pageOf(row));
    },
    async latest(limit) {
      return Promise.all((await createArchiveStore(db).list(Math.min(limit, ARCHIVE_SIZE))).map(pageOf));
    },
  };

  return {
    /** What pages read (`serverContext(locals).newsletter`). */
    reader,

    /** Site search: the best `limit` issues whose level opens to the viewer (whole bodies), and the count of those beyond it. */
    async search(viewer: Viewer, query: string, limit: number): Promise<SourceMatches> {
      const open = ACCESS_LEVELS.filter((level) => checkAccess(viewer, level).allowed);
      const closed = ACCESS_LEVELS.filter((level) => !open.includes(level));
      const store = createArchiveStore(db);
      const [rows, counts] = await Promise.all([store.ranked(query, open, limit), store.counted(query, closed)]);
      return {
        hits: rows.map((r) => ({
          key: r.id,
          type: 'newsletter' as const,
          slug: r.slug,
          title: r.subject,
          url: `/newsletter/${r.slug}`,
          rank: r.rank,
        })),
        beyond: beyondOf(counts),
      };
    },

    /** The highlighted fragment of each hit's body, by key (the issue's id). */
    async headlines(keys: readonly string[], query: string): Promise<Map<string, string>> {
      return new Map((await createArchiveStore(db).headlines(keys, query)).map((r) => [r.id, r.headline]));
    },

    /** The whole issue (the preview line removed) as sanitised HTML, for a viewer entitled to it. */
    async body(viewer: Viewer, slug: string): Promise<{ html: string }> {
      if (!viewer) throw new AppError('unauthorized', 'Please sign in.', { headers: { 'WWW-Authenticate': 'Bearer' } });
      const row = await createArchiveStore(db).bySlug(slug);
      if (!row) throw new AppError('not_found', 'Issue not found');
      assertAccess(viewer, row.accessLevel, 'issue');
      return keep(bodies, row.id, async () => ({ html: await render(splitPreview(row.body).body, 'markdown') }));
    },
  };
}

export type NewsletterArchive = ReturnType<typeof createNewsletterArchive>;
