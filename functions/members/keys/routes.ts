/**
 * API keys under /api/admin/members/keys (issue 35), admins only from a session still signed in (a key
 * never makes or revokes keys): GET (the list with last use), POST { name, scopes } → 201 { id, key }
 * (the key shown this once), DELETE /{id} (revoked at once).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { API_SCOPES } from '#shared/members.ts';
import type { AppEnv } from '../../platform/http/context.ts';
import { pathId, singleLine } from '../../platform/http/request.ts';
import { jsonBody } from '../../platform/http/validators.ts';
import type { Guards } from '../../users/index.ts';
import { requireViewer } from '../../users/index.ts';
import type { ApiKeys } from './service.ts';

const NewKey = z
  .object({
    name: singleLine('name', 80),
    scopes: z
      .array(z.enum(API_SCOPES, { error: `Each scope must be one of ${API_SCOPES.join(', ')}` }))
      .min(1, 'Pick at least one scope')
      .max(API_SCOPES.length)
      .refine((l) => new Set(l).size === l.length, 'Name each scope once'),
  })
  .strict();

export function createApiKeyRoutes({ keys, guards }: { keys: ApiKeys; guards: Guards }) {
  return new Hono<AppEnv>()
    .use(guards.identify, guards.admin, guards.live)
    .get('/', async (c) => c.json({ keys: await keys.list() }))
    .post('/', jsonBody(NewKey), async (c) => {
      const { name, scopes } = c.req.valid('json');
      return c.json(await keys.create(requireViewer(c).id, name, scopes), 201);
    })
    .delete('/:id', async (c) => {
      await keys.revoke(pathId(c, 'id', 'No such key, or it was revoked already.'));
      return c.body(null, 204);
    });
}

export type ApiKeyRoutes = ReturnType<typeof createApiKeyRoutes>;
