/**
 * The Users tab's calls (issue 35): the filtered member list, labels in bulk, segments, the members
 * file (export as a download, import with a dry run first) and API keys, each through the typed
 * clients with the admin's token. Browser only.
 */
import { filterQuery, MAX_IMPORT_ROWS, type ApiScope, type MemberFilter } from '#shared/members.ts';
import { fileParts, memberCount } from './members-file-parts.ts';
import { api, call, failure, type ApiData, type ApiResult } from '../../lib/browser/api.ts';

export type MemberPage = ApiData<typeof api.admin.users.$get>;
export type AdminMember = MemberPage['users'][number];
export type Label = ApiData<typeof api.members.labels.$get>['labels'][number];
export type Segment = ApiData<typeof api.members.segments.$get>['segments'][number];
export type ApiKey = ApiData<typeof api.apiKeys.index.$get>['keys'][number];
export type NewApiKey = ApiData<typeof api.apiKeys.index.$post>;
export type DryRun = { rows: number; errors: { row: number; message: string }[] };
export type ImportDone = { created: number; updated: number; errors: { row: number; message: string }[] };

/** Why a call failed, in words for the panel. */
export const reason = (result: { kind: string; message?: string }, fallback: string) =>
  (result.kind === 'error' || result.kind === 'not-found') && result.message ? result.message : fallback;

export const fetchMembers = (filter: MemberFilter, page: number, signal?: AbortSignal) =>
  call((o) => api.admin.users.$get({ query: { ...filterQuery(filter), page: String(page), limit: '20' } }, o), { signal });

export const fetchLabels = (signal?: AbortSignal) => call((o) => api.members.labels.$get({}, o), { signal });
export const deleteLabel = (id: string) => call((o) => api.members.labels[':id'].$delete({ param: { id } }, o));

/** Puts labels on (or takes them off) the filtered members, or the chosen ones among them. */
export const relabel = (body: { filter: MemberFilter; userIds?: string[]; add: string[]; remove: string[] }) =>
  call((o) => api.members.labels.$post({ json: body }, o));

export const fetchSegments = (signal?: AbortSignal) => call((o) => api.members.segments.$get({}, o), { signal });
export const createSegment = (name: string, filter: MemberFilter) => call((o) => api.members.segments.$post({ json: { name, filter } }, o));
export const deleteSegment = (id: string) => call((o) => api.members.segments[':id'].$delete({ param: { id } }, o));

export const fetchApiKeys = (signal?: AbortSignal) => call((o) => api.apiKeys.index.$get({}, o), { signal });
export const createApiKey = (name: string, scopes: ApiScope[]) => call((o) => api.apiKeys.index.$post({ json: { name, scopes } }, o));
export const revokeApiKey = (id: string) => call((o) => api.apiKeys[':id'].$delete({ param: { id } }, o));

/** Downloads the filtered members as the CSV file (fetched with the token, then saved as a file). */
export async function downloadMembers(filter: MemberFilter): Promise<ApiResult<null>> {
  try {
    const res = await api.members['export.csv'].$get({ query: filterQuery(filter) });
    if (!res.ok) return await failure(res);
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'members.csv';
    const href = URL.createObjectURL(await res.blob());
    const link = Object.assign(document.createElement('a'), { href, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    return { ok: true, data: null };
  } catch {
    return { ok: false, kind: 'error', message: 'The members file could not be downloaded.' };
  }
}

/**
 * Sends a members file as it is (its bytes: the server reads the encoding), as a dry run or for real.
 * Its bytes are read once, so a retry of the write sends the same file.
 */
/** One part of the file to the API (a dry run or the import). */
const sendPart = (body: Uint8Array<ArrayBuffer>, dryRun: boolean) =>
  call((o) =>
    api.members.import.$post(
      { query: dryRun ? { dryRun: '1' } : {} },
      {
        headers: { ...o.headers, 'content-type': 'text/csv' },
        init: { ...o.init, body },
      },
    ),
  ) as Promise<ApiResult<DryRun & ImportDone>>;

/**
 * Checks (`dryRun`) or imports the members file, in parts a serverless host takes (members-file-parts.ts),
 * one after another, their answers joined with rows numbered as in the whole file. A part that fails
 * stops the rest; its answer says so (the parts before it were imported).
 */
export async function sendMembersFile<D extends boolean>(file: File, dryRun: D): Promise<ApiResult<D extends true ? DryRun : ImportDone>> {
  type Answer = ApiResult<D extends true ? DryRun : ImportDone>;
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (memberCount(bytes) > MAX_IMPORT_ROWS)
    return { ok: false, kind: 'error', message: `A file may bring at most ${MAX_IMPORT_ROWS} members; split it.` } as Answer;
  const parts = fileParts(bytes);
  const joined = { rows: 0, created: 0, updated: 0, errors: [] as DryRun['errors'] };
  for (const [i, part] of parts.entries()) {
    const result = await sendPart(part.bytes as Uint8Array<ArrayBuffer>, dryRun);
    if (!result.ok && i === 0) return result as Answer;
    if (!result.ok) {
      // The parts before it stand (an import wrote them): their rows are reported, and where this one stopped.
      const why = result.kind === 'error' || result.kind === 'not-found' ? result.message : 'you were signed out';
      const message = `Part ${i + 1} of ${parts.length} (from this row on) was not ${dryRun ? 'checked' : 'imported'}: ${why}`;
      joined.errors.push({ row: part.offset + 2, message });
      break;
    }
    const { rows = 0, created = 0, updated = 0, errors } = result.data;
    joined.rows += rows;
    joined.created += created;
    joined.updated += updated;
    joined.errors.push(...errors.map((e) => ({ ...e, row: e.row + part.offset })));
  }
  const answer = dryRun
    ? { rows: joined.rows, errors: joined.errors }
    : { created: joined.created, updated: joined.updated, errors: joined.errors };
  return { ok: true, data: answer } as Answer;
}
