/**
 * Newsletter issues as staff write them (`/api/admin/newsletter`, issues-routes.ts): drafts, the
 * copy as each level gets it, a test copy to oneself, sending now, scheduling in the editor's zone and
 * cancelling, a published article as a starting draft; and the tick that sends what is due. Sending
 * itself (one copy per recipient, the account) is sending.ts; the public archive is archive.ts.
 */
import { effectiveLevel } from '#shared/access.ts';
import { utcInstant } from '#shared/events/time.ts';
import type { Db } from '../platform/db/client.ts';
import type { EmailService } from '../email/service.ts';
import { AppError } from '../platform/errors.ts';
import type { ContentService } from '../content/service.ts';
import { slugify } from '../content/rows.ts';
import type { Viewer } from '../users/service.ts';
import { copyTemplate, fillCopy, PREVIEW_TOKEN, type CopyLevel } from './issue-mail.ts';
import { createIssueStore } from './issues/store.ts';
import type { IssueInput, PreviewLevel, ScheduleInput } from './schema.ts';
import type { IssueSender } from './sending.ts';
import type { IssueRow, IssueStatus } from './tables.ts';

/** Slugs the archive's own pages use (and its feed), never given to an issue. */
export const RESERVED_SLUGS = new Set(['confirm', 'confirmed', 'unsubscribe', 'unsubscribed', 'rss']);
/** How far ahead an issue may be scheduled. */
const MAX_AHEAD_MS = 365 * 24 * 3600 * 1000;
/** Issues the staff list shows. */
const LIST_SIZE = 100;
const MDX_PREVIEW = /^[ \t]*\{\/\*[ \t]*preview[ \t]*\*\/\}[ \t]*$/gim;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const levelOf = (level: PreviewLevel): CopyLevel => (level === 'visitor' ? null : level);

export interface IssueServiceDeps {
  db: Db;
  outbox: EmailService;
  content: ContentService;
  sender: IssueSender;
  siteUrl: string;
}

export function createIssueService({ db, outbox, content, sender, siteUrl }: IssueServiceDeps) {
  const store = createIssueStore(db);

  async function summary(row: IssueRow) {
    const stats = await sender.stats(row);
    // Every copy left the queue: the issue is sent (the tick records it; the answer need not wait for it).
    const status: IssueStatus = row.status === 'sending' && stats.pending === 0 ? 'sent' : row.status;
    if (status !== row.status) await store.markSent(row.id);
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

  async function found(id: string): Promise<IssueRow> {
    const row = await store.byId(id);
    if (!row) throw new AppError('not_found', 'No newsletter issue with that id.');
    return row;
  }

  /** Changes a draft or scheduled issue; 404 when there is none, 409 when it already went out. */
  async function changeWaiting(id: string, patch: Parameters<typeof store.updateIn>[2], what: string): Promise<IssueRow> {
    const row = await store.updateIn(id, ['draft', 'scheduled'], patch);
    if (row) return row;
    const now = await found(id);
    throw new AppError('conflict', `This issue is ${now.status}: only a draft or scheduled issue can be ${what}.`);
  }

  /** A unique slug from the subject, never one of the archive's own pages. */
  async function insertDraft(viewer: Viewer, input: IssueInput): Promise<IssueRow> {
    const base = slugify(input.subject);
    const first = RESERVED_SLUGS.has(base) ? 2 : 1;
    for (let n = first; n < first + 50; n++) {
      const row = await store.insert({ ...input, slug: n === 1 ? base : `${base}-${n}`, createdBy: viewer.id });
      if (row) return row;
    }
    throw new AppError('conflict', 'Too many issues share this subject; change it a little.');
  }

  return {
    /** POST /issues: a new draft. */
    async create(viewer: Viewer, input: IssueInput): Promise<{ id: string }> {
      return { id: (await insertDraft(viewer, input)).id };
    },

    /** GET /issues: newest first, each with its live account. */
    async list() {
      return Promise.all((await store.list(LIST_SIZE)).map(summary));
    },

    /** GET /issues/{id}: the issue with its Markdown body. */
    async get(id: string) {
      const row = await found(id);
      return { ...(await summary(row)), body: row.body };
    },

    /** PUT /issues/{id}: a draft or scheduled issue rewritten (its slug and schedule stay). */
    async update(id: string, input: IssueInput) {
      const row = await changeWaiting(id, input, 'changed');
      return { ...(await summary(row)), body: row.body };
    },

    /** DELETE /issues/{id}: drafts only. */
    async remove(id: string): Promise<void> {
      if (await store.deleteDraft(id)) return;
      const row = await found(id);
      throw new AppError('conflict', `This issue is ${row.status}: only a draft can be deleted (cancel a scheduled one first).`);
    },

    /** GET /issues/{id}/preview?level=: the copy exactly as a recipient at that level gets it, with placeholder unsubscribe links. */
    async preview(id: string, level: PreviewLevel) {
      const copy = fillCopy(copyTemplate(await found(id), levelOf(level), siteUrl), PREVIEW_TOKEN);
      return { subject: copy.subject, html: copy.html, text: copy.text };
    },

    /** POST /issues/{id}/test: one copy to the caller ("[Test] " subject), cut at `level` (theirs by default); never counted. */
    async test(viewer: Viewer, id: string, level?: PreviewLevel): Promise<{ to: string }> {
      const row = await found(id);
      const cutAt = level ? levelOf(level) : effectiveLevel(viewer);
      const { rendered, placeholder } = copyTemplate(row, cutAt, siteUrl, '[Test] ');
      await outbox.enqueueCopies(db, 'newsletter-issue', rendered, placeholder, [
        { to: viewer.email, fill: PREVIEW_TOKEN, userId: viewer.id },
      ]);
      return { to: viewer.email };
    },

    /** POST /issues/{id}/send: every copy written now (409 unless draft or scheduled). */
    async send(id: string) {
      const sent = await sender.sendNow(id);
      if (sent) return summary(sent);
      const row = await found(id);
      throw new AppError('conflict', `This issue is ${row.status}: only a draft or scheduled issue can be sent.`);
    },

    /** POST /issues/{id}/schedule: a time in the editor's zone, in the future and within a year. */
    async schedule(id: string, { sendAt, timeZone }: ScheduleInput) {
      const at = new Date(utcInstant(sendAt, timeZone));
      const now = Date.now();
      if (at.getTime() <= now)
        throw new AppError('validation_failed', 'Pick a time in the future.', { fields: { sendAt: ['Pick a time in the future'] } });
      if (at.getTime() > now + MAX_AHEAD_MS)
        throw new AppError('validation_failed', 'Pick a time within a year.', { fields: { sendAt: ['Pick a time within a year'] } });
      return summary(await changeWaiting(id, { status: 'scheduled', sendAt: at, timeZone }, 'scheduled'));
    },

    /** POST /issues/{id}/cancel: a scheduled issue back to draft. */
    async cancel(id: string) {
      const row = await store.updateIn(id, ['scheduled'], { status: 'draft', sendAt: null, timeZone: null });
      if (row) return summary(row);
      const now = await found(id);
      throw new AppError('conflict', `This issue is ${now.status}: only a scheduled issue can be cancelled.`);
    },

    /** GET /articles/{slug}: a published article as a starting draft (MDX's preview line becomes Markdown's). */
    async articleDraft(slug: string) {
      const article = await content.get('blog', slug);
      if (!article) throw new AppError('not_found', 'Article not found');
      return {
        subject: article.title.slice(0, 200),
        previewText: article.description.replace(/\s+/g, ' ').trim().slice(0, 300),
        body: article.content.replace(MDX_PREVIEW, '<!-- preview -->').slice(0, 200_000),
        accessLevel: article.accessLevel,
      };
    },
  };
}

export type IssueService = ReturnType<typeof createIssueService>;
export type IssueSummary = Awaited<ReturnType<IssueService['list']>>[number];
