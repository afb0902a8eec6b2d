/**
 * /api/admin/members under the admin mount (functions/api.ts): the members' business tools
 * (routes.ts: the members file, labels, segments) and API keys (keys/routes.ts). Admins only.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/http/context.ts';
import type { Guards } from '../users/index.ts';
import type { MemberImport } from './csv/import.ts';
import { createApiKeyRoutes } from './keys/routes.ts';
import type { ApiKeys } from './keys/service.ts';
import { createMemberRoutes } from './routes.ts';
import type { MemberService } from './service.ts';

export interface MembersAdminApiDeps {
  members: MemberService;
  imports: MemberImport;
  apiKeys: ApiKeys;
  guards: Guards;
}

/** The keys first: the members routes guard every path under their mount. */
export function createMembersAdminApi({ members, imports, apiKeys, guards }: MembersAdminApiDeps) {
  return new Hono<AppEnv>()
    .route('/keys', createApiKeyRoutes({ keys: apiKeys, guards }))
    .route('/', createMemberRoutes({ members, imports, guards }));
}
