/**
 * The members' business tools under /api/admin/members (issue 35), admins only, every route from a
 * session still signed in or an API key with the route's scope (keys/guard.ts):
 * GET /export.csv?<filter> (read:members), POST /import[?dryRun=1] (text/csv, write:members),
 * GET /labels (read:members), POST /labels (labels added to or removed from members, write:members),
 * DELETE /labels/{id}, GET /segments (read:members), POST /segments, DELETE /segments/{id}.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { LabelName, MemberFilterSchema, SEGMENT_NAME_MAX_CHARS } from '#shared/members.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { pathId, singleLine } from '../platform/http/request.ts';
import { jsonBody, queryOf } from '../platform/http/validators.ts';
import { requestHeader } from '../platform/http/http.ts';
import { AppError } from '../platform/errors.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { MemberImport } from './csv/import.ts';
import type { MemberService } from './service.ts';
import { exportCsv } from './csv/export.ts';

/** The largest members file (about 100,000 members); it streams under this limit, not the API's. */
export const MEMBERS_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_PATH = '/api/admin/members/import';

const Relabel = z
  .object({
    filter: MemberFilterSchema.default({}),
    userIds: z.array(z.uuid('userIds must be member ids')).min(1).max(1000, 'At most 1000 members at once; use a filter').optional(),
    add: z.array(LabelName).max(20, 'At most 20 labels at once').default([]),
    remove: z.array(LabelName).max(20, 'At most 20 labels at once').default([]),
  })
  .strict()
  .refine((b) => b.add.length + b.remove.length > 0, { message: 'Send labels to add or remove', path: ['add'] });
const NewSegment = z.object({ name: singleLine('name', SEGMENT_NAME_MAX_CHARS), filter: MemberFilterSchema }).strict();
const ImportQuery = z.object({ dryRun: z.enum(['0', '1'], { error: 'dryRun must be 1 or 0' }).optional() }).strict();

export function createMemberRoutes({
  members,
  imports,
  guards,
  clock = () => new Date(),
}: {
  members: MemberService;
  imports: MemberImport;
  guards: Guards;
  clock?: () => Date;
}) {
  const fileLimit = bodyLimit({
    maxSize: MEMBERS_FILE_MAX_BYTES,
    onError: () => {
      throw new AppError('payload_too_large', `A members file may be at most ${MEMBERS_FILE_MAX_BYTES / 1024 / 1024} MB; split it.`);
    },
  });
  const adminOnly = [guards.identify, guards.admin, guards.live] as const;
  return (
    new Hono<AppEnv>()
      .use(...adminOnly)
      .get('/export.csv', queryOf(MemberFilterSchema), async (c) => {
        const filter = c.req.valid('query');
        const csv = exportCsv(await members.exportRows(filter));
        const day = clock().toISOString().slice(0, 10);
        return c.body(csv, 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="members-${day}.csv"`,
        });
      })
      // The query is checked before the type; the file streams in the handler (no body validator).
      .post('/import', fileLimit, queryOf(ImportQuery), async (c) => {
        const { dryRun } = c.req.valid('query');
        const type = (requestHeader(c, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'text/csv') throw new AppError('unsupported_media_type', 'Send the members file as text/csv.');
        const bytes = new Uint8Array(await c.req.arrayBuffer());
        if (dryRun === '1') return c.json(await imports.dryRun(bytes));
        return c.json(await imports.run(requireViewer(c).id, bytes));
      })
      .get('/labels', async (c) => c.json({ labels: await members.labels() }))
      .post('/labels', jsonBody(Relabel), async (c) => c.json(await members.relabel(c.req.valid('json'))))
      .delete('/labels/:id', async (c) => {
        await members.deleteLabel(pathId(c, 'id', 'No such label.'));
        return c.body(null, 204);
      })
      .get('/segments', async (c) => c.json({ segments: (await members.segments()).map(segmentJson) }))
      .post('/segments', jsonBody(NewSegment), async (c) => {
        const { name, filter } = c.req.valid('json');
        return c.json(segmentJson(await members.createSegment(name, filter, requireViewer(c).id)), 201);
      })
      .delete('/segments/:id', async (c) => {
        await members.deleteSegment(pathId(c, 'id', 'No such segment.'));
        return c.body(null, 204);
      })
  );
}

const segmentJson = (s: { id: string; name: string; filter: unknown; createdAt: Date }) => ({
  id: s.id,
  name: s.name,
  filter: s.filter as z.infer<typeof MemberFilterSchema>,
  createdAt: s.createdAt.toISOString(),
});

export type MemberRoutes = ReturnType<typeof createMemberRoutes>;
