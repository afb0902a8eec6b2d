/**
 * The Newsletter tab's calls to the staff newsletter API (/api/admin/newsletter, functions/newsletter/
 * issues/routes.ts): issues, each audience's reach, their per-level previews, test sends, sending,
 * scheduling, and a published article as a starting draft. Every call answers the API module's one result shape.
 */
import type { PreviewLevel } from '#shared/newsletter.ts';
import { api, call, publicApi, type ApiData, type ApiInput, type ApiResult } from '../../lib/browser/api.ts';

const issues = api.newsletterAdmin.issues;
const issue = issues[':id'];

export type IssueSummary = ApiData<typeof issues.$get>['issues'][number];
export type Issue = ApiData<typeof issue.$get>['issue'];
export type IssueStatus = IssueSummary['status'];
export type IssueStats = IssueSummary['stats'];
export type Audience = IssueSummary['audience'][number];
export type IssuePreview = ApiData<typeof issue.preview.$get>;
export type AudienceReach = ApiData<typeof api.newsletterAdmin.audiences.$get>;
export type { PreviewLevel };

/** What the editor sends: the POST and PUT body, as the route's schema takes it (its audiences named as the answers name them). */
export type IssueInput = Omit<ApiInput<typeof issues.$post>, 'audience'> & { audience: Audience[] };

const at = (id: string) => ({ param: { id: encodeURIComponent(id) } });

export const listIssues = (signal?: AbortSignal) => call((o) => issues.$get({}, o), { signal });

export const getIssue = (id: string, signal?: AbortSignal) => call((o) => issue.$get(at(id), o), { signal });

export const createIssue = (body: IssueInput) => call((o) => issues.$post({ json: body }, o));

export const updateIssue = (id: string, body: IssueInput) => call((o) => issue.$put({ ...at(id), json: body }, o));

export const deleteIssue = (id: string) => call((o) => issue.$delete(at(id), o));

/** How many addresses each audience, and `selected` together, would be mailed to now (the send's own count). */
export const audienceReach = (selected: readonly Audience[], signal?: AbortSignal) =>
  call((o) => api.newsletterAdmin.audiences.$get({ query: { selected: selected.join(',') } }, o), { signal });

export const previewIssue = (id: string, level: PreviewLevel, signal?: AbortSignal) =>
  call((o) => issue.preview.$get({ ...at(id), query: { level } }, o), { signal });

export const sendTest = (id: string, level: PreviewLevel) => call((o) => issue.test.$post({ ...at(id), json: { level } }, o));

export const sendNow = (id: string) => call((o) => issue.send.$post(at(id), o));

export const scheduleIssue = (id: string, when: { sendAt: string; timeZone: string }) =>
  call((o) => issue.schedule.$post({ ...at(id), json: when }, o));

export const cancelSchedule = (id: string) => call((o) => issue.cancel.$post(at(id), o));

/** A published blog article as a starting draft (Markdown, its preview marker kept). */
export const articleDraft = (slug: string) =>
  call((o) => api.newsletterAdmin.articles[':slug'].$get({ param: { slug: encodeURIComponent(slug) } }, o));

/** The published blog articles (the public list): what "Start from an article" offers. */
export async function publishedArticles(signal?: AbortSignal): Promise<ApiResult<{ slug: string; title: string }[]>> {
  try {
    const res = await publicApi.content[':segment'].$get(
      { param: { segment: 'blogs' } },
      { init: { cache: 'no-cache', ...(signal ? { signal } : {}) } },
    );
    if (!res.ok) return { ok: false, kind: 'error', message: 'The articles could not be loaded.' };
    const items = await res.json();
    return { ok: true, data: items.map((item) => ({ slug: item.slug, title: item.title })) };
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, kind: 'error', message: 'The articles could not be loaded.' };
  }
}

/** A failed call's words for a person (the server's message where it gave one). */
export function failureText(result: Exclude<ApiResult<unknown>, { ok: true }>, fallback: string): string {
  if (result.kind === 'signed-out') return 'Your session has ended. Please sign in again.';
  if (result.kind === 'forbidden') return 'Only editors and admins can manage newsletters.';
  return result.message || fallback;
}
