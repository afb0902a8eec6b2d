/**
 * Newsletter issues as staff write them (`/api/admin/newsletter`, routes.ts): drafts (refused with
 * 422 unless every part renders), the copy as each level gets it, a test copy to oneself, sending
 * now, scheduling in the editor's zone and cancelling, a published article as a starting draft.
 * Sending itself (one copy per recipient, the account, the scheduler's round) is sending.ts; the
 * public archive is ../archive/.
 */
import { randomBytes } from 'node:crypto';
import { effectiveLevel } from '#shared/access.ts';
import { MARKDOWN_PREVIEW_LINE, MDX_PREVIEW_LINES } from '#shared/content/markdown.ts';
import { utcInstant } from '#shared/time.ts';
import { ISSUE_LIMITS, PREVIEW_LEVELS, type IssueAudience, type PreviewLevel } from '#shared/newsletter.ts';
import { z } from 'zod';
import type { Db } from '../../platform/db/client.ts';
import type { EmailService } from '../../email/index.ts';
import { AppError } from '../../platform/errors.ts';
import type { ContentService } from '../../content/index.ts';
import { slugify } from '../../content/index.ts';
import type { RenderBody } from '../../content/index.ts';
import type { Tokens } from '../../platform/tokens.ts';
import type { Viewer } from '../../users/index.ts';
import type { IssueRow, IssueStatus } from '../tables.ts';
import { audienceReach, type SegmentMembers } from './audience.ts';
import { assertRenders, copyTemplate, fillCopy, PREVIEW_TOKEN, type CopyLevel } from './mail.ts';
import type { IssueInput, ScheduleInput } from './schema.ts';
import { NO_STATS, type IssueSender, type IssueStats } from './sending.ts';
import { createIssueStore, WAITING, type IssueStore } from './store.ts';

/** Slugs the archive's own pages use (and its feed), never given to an issue. */
export const RESERVED_SLUGS = new Set(['confirm', 'confirmed', 'unsubscribe', 'unsubscribed', 'rss']);
/** How far ahead an issue may be scheduled. */
const MAX_AHEAD_MS = 365 * 24 * 3600 * 1000;
/** Issues the staff list shows. */
const LIST_SIZE = 100;
/** Attempts at a free slug: the subject's, then with a random suffix (16 million of them each time). */
const SLUG_TRIES = 5;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** What a preview link names: an issue and a level. */
const PreviewClaims = z.object({ i: z.uuid(), l: z.enum(PREVIEW_LEVELS) });
const levelOf = (level: PreviewLevel): CopyLevel => (level === 'visitor' ? null : level);

export interface IssueServiceDeps {
  db: Db;
  /** The members a saved segment picks (the members domain's filter), for segment audiences. */
  segments?: SegmentMembers;
  outbox: EmailService;
  content: ContentService;
  sender: IssueSender;
  siteUrl: string;
  /** Renders the body (the server's staff renderer, off the server's thread). */
  render: RenderBody;
  /** Signs the preview frame's links. */
  tokens: Tokens;
}

/** How long a preview frame's link works: long enough to load it, and to reload it while reading. */
export const PREVIEW_LINK_SECONDS = 600;
/** Where the preview frame loads a copy from (preview-routes.ts), by its signed link. */
export const PREVIEW_PATH = '/api/newsletter/previews';

/** An issue as the staff list shows it; a sending issue whose copies all left the queue reads `sent` (the scheduler stores it). */
function summary(row: IssueRow, stats: IssueStats) {
  const status: IssueStatus = row.status === 'sending' && stats.pending === 0 ? 'sent' : row.status;
  return {
    id: row.id,
    slug: row.slug,
    subject: row.subject,
    previewText: row.previewText,
    accessLevel: row.accessLevel,
    audience: row.audience,
    status,
    sendAt: iso(row.sendAt),
    timeZone: row.timeZone,
    sentAt: iso(row.sentAt),
    createdAt: row.createdAt.toISOString(),
    stats,
  };
}

/** The subject's words as a slug; "issue" when it has none. */
function slugOf(subject: string): string {
  const words = slugify(subject);
  return words === 'item' && !/item/i.test(subject) ? 'issue' : words;
}

/** What the service's parts share: its dependencies, the store, and what a copy is cut with. */
interface IssueParts extends IssueServiceDeps {
  store: IssueStore;
  copies: { siteUrl: string; render: RenderBody };
}

/** One issue's summary (one outbox query while it sends, none otherwise). */
async function summaryOf({ sender }: IssueParts, row: IssueRow) {
  return summary(row, (await sender.accounts([row])).get(row.id) ?? NO_STATS);
}

async function found({ store }: IssueParts, id: string): Promise<IssueRow> {
  const row = await store.byId(id);
  if (!row) throw new AppError('not_found', 'No newsletter issue with that id.');
  return row;
}

/** The copy of the issue a recipient at `level` gets, with placeholder unsubscribe links. */
async function copyAt(deps: IssueParts, id: string, level: PreviewLevel) {
  const { copies } = deps;
  return fillCopy(await copyTemplate(await found(deps, id), levelOf(level), copies), PREVIEW_TOKEN);
}

/** Changes an issue that has not gone out; 404 when there is none, 409 when it went out. */
async function changeWaiting(deps: IssueParts, id: string, patch: Parameters<IssueStore['updateIn']>[2], what: string): Promise<IssueRow> {
  const { store } = deps;
  const row = await store.updateIn(id, WAITING, patch);
  if (row) return row;
  const now = await found(deps, id);
  throw new AppError('conflict', `This issue is ${now.status}: only an issue that has not gone out can be ${what}.`);
}

/** The subject's slug; when that is taken or one of the archive's own pages, it with a short random suffix. */
async function insertDraft({ store }: IssueParts, viewer: Viewer, input: IssueInput): Promise<IssueRow> {
  const base = slugOf(input.subject);
  for (let n = 0; n < SLUG_TRIES; n++) {
    const slug = n === 0 && !RESERVED_SLUGS.has(base) ? base : `${base}-${randomBytes(3).toString('hex')}`;
    const row = await store.insert({ ...input, slug, createdBy: viewer.id });
    if (row) return row;
  }
  throw new AppError('conflict', 'No free address could be found for this issue; please try again.');
}
/** Issues as staff write them: created, listed, read, rewritten, deleted, and the audiences' reach. */
function drafts(deps: IssueParts) {
  const { db, sender, render, segments, store } = deps;
  return {
    /** POST /issues: a new draft (422 when its body cannot render). */
    async create(viewer: Viewer, input: IssueInput): Promise<{ id: string }> {
      await assertRenders(input, render);
      return { id: (await insertDraft(deps, viewer, input)).id };
    },

    /** GET /audiences?selected=: how many addresses each audience, and the editor's choice, would be mailed to now. */
    reach: (selected: readonly IssueAudience[]) => audienceReach(db, selected, segments),

    /** GET /issues: newest first, each with its account (two queries in all). */
    async list() {
      const rows = await store.list(LIST_SIZE);
      const accounts = await sender.accounts(rows);
      return rows.map((row) => summary(row, accounts.get(row.id) ?? NO_STATS));
    },

    /** GET /issues/{id}: the issue with its Markdown body. */
    async get(id: string) {
      const row = await found(deps, id);
      return { ...(await summaryOf(deps, row)), body: row.body };
    },

    /** PUT /issues/{id}: an issue that has not gone out, rewritten (its slug and schedule stay; 422 when its body cannot render). */
    async update(id: string, input: IssueInput) {
      await assertRenders(input, render);
      const row = await changeWaiting(deps, id, input, 'changed');
      return { ...(await summaryOf(deps, row)), body: row.body };
    },

    /** DELETE /issues/{id}: drafts (and issues that failed to go out) only. */
    async remove(id: string): Promise<void> {
      if (await store.deleteDraft(id)) return;
      const row = await found(deps, id);
      throw new AppError('conflict', `This issue is ${row.status}: only a draft can be deleted (cancel a scheduled one first).`);
    },
  };
}

/** What staff check before sending: the preview, its HTML, a test copy. */
function previews(deps: IssueParts) {
  const { db, outbox, tokens, copies } = deps;
  return {
    /**
     * GET /issues/{id}/preview?level=: the copy exactly as a recipient at that level gets it, with
     * placeholder unsubscribe links, and `url`, a signed link to its HTML for the editor's preview
     * frame (the mail's inline styles need a policy of their own: see preview-routes.ts).
     */
    async preview(id: string, level: PreviewLevel) {
      const copy = await copyAt(deps, id, level);
      const token = await tokens.sign('mail-preview', { i: id, l: level }, PREVIEW_LINK_SECONDS);
      return { subject: copy.subject, html: copy.html, text: copy.text, url: `${PREVIEW_PATH}/${token}` };
    },

    /** The HTML of the copy a preview link names (404 once the link has expired or the issue is gone). */
    async previewHtml(token: string): Promise<string> {
      const link = await tokens.verify<{ i?: unknown; l?: unknown }>('mail-preview', token);
      const claims = link.ok ? PreviewClaims.safeParse(link.claims) : undefined;
      if (!claims?.success) throw new AppError('not_found', 'This preview link has expired. Choose a level again to see the copy.');
      return (await copyAt(deps, claims.data.i, claims.data.l)).html;
    },

    /** POST /issues/{id}/test: one copy to the caller ("[Test] " subject), cut at `level` (theirs by default); never counted. */
    async test(viewer: Viewer, id: string, level?: PreviewLevel): Promise<{ to: string }> {
      const row = await found(deps, id);
      const cutAt = level ? levelOf(level) : effectiveLevel(viewer);
      const { rendered, placeholder } = await copyTemplate(row, cutAt, copies, '[Test] ');
      // Not bulk: the editor is waiting for it. In no batch: it is in no issue's account.
      await outbox.enqueueCopies(db, 'newsletter-issue', rendered, placeholder, [
        { to: viewer.email, fill: PREVIEW_TOKEN, userId: viewer.id },
      ]);
      return { to: viewer.email };
    },
  };
}

/** Sending now or on a schedule, cancelling a schedule, and an article as a starting draft. */
function sending(deps: IssueParts) {
  const { content, sender, store } = deps;
  return {
    /** POST /issues/{id}/send: every copy written now (409 once it went out). */
    async send(id: string) {
      const sent = await sender.sendNow(id);
      if (sent) return summaryOf(deps, sent);
      const row = await found(deps, id);
      throw new AppError('conflict', `This issue is ${row.status}: it has gone out already.`);
    },

    /** POST /issues/{id}/schedule: a time in the editor's zone, in the future and within a year. */
    async schedule(id: string, { sendAt, timeZone }: ScheduleInput) {
      const at = new Date(utcInstant(sendAt, timeZone));
      const now = Date.now();
      if (at.getTime() <= now)
        throw new AppError('validation_failed', 'Pick a time in the future.', { fields: { sendAt: ['Pick a time in the future'] } });
      if (at.getTime() > now + MAX_AHEAD_MS)
        throw new AppError('validation_failed', 'Pick a time within a year.', { fields: { sendAt: ['Pick a time within a year'] } });
      return summaryOf(deps, await changeWaiting(deps, id, { status: 'scheduled', sendAt: at, timeZone }, 'scheduled'));
    },

    /** POST /issues/{id}/cancel: a scheduled issue back to draft. */
    async cancel(id: string) {
      const row = await store.updateIn(id, ['scheduled'], { status: 'draft', sendAt: null, timeZone: null });
      if (row) return summaryOf(deps, row);
      const now = await found(deps, id);
      throw new AppError('conflict', `This issue is ${now.status}: only a scheduled issue can be cancelled.`);
    },

    /** GET /articles/{slug}: a published article as a starting draft (MDX's preview line becomes Markdown's). */
    async articleDraft(slug: string) {
      const article = await content.get('blog', slug);
      if (!article) throw new AppError('not_found', 'Article not found');
      return {
        subject: article.title.slice(0, ISSUE_LIMITS.subject),
        previewText: article.description.replace(/\s+/g, ' ').trim().slice(0, ISSUE_LIMITS.previewText),
        body: article.content.replace(MDX_PREVIEW_LINES, MARKDOWN_PREVIEW_LINE).slice(0, ISSUE_LIMITS.body),
        accessLevel: article.accessLevel,
      };
    },
  };
}

export function createIssueService(options: IssueServiceDeps) {
  const { db, siteUrl, render } = options;
  const deps: IssueParts = { ...options, store: createIssueStore(db), copies: { siteUrl, render } };
  return { ...drafts(deps), ...previews(deps), ...sending(deps) };
}

export type IssueService = ReturnType<typeof createIssueService>;
export type IssueSummary = Awaited<ReturnType<IssueService['list']>>[number];
