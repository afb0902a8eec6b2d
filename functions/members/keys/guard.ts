/**
 * What an API key may call (issue 35), in one table: each route open to integrations with the scope
 * it needs (a `read:` scope only reads). `identify` (users/identity.ts) hands a request carrying
 * `Authorization: Bearer mk_…` here: it is answered as the admin who made the key when the key is
 * live and the table gives its route a scope the key has; otherwise 401 for an unknown or revoked key
 * (or a route no key may call), 403 for a missing scope or an author who is no admin any more. The
 * routes themselves keep their guards, so the same role tables hold for keys.
 */
import type { ApiScope } from '#shared/members.ts';
import { AppError } from '../../platform/errors.ts';
import type { AppContext } from '../../platform/http/context.ts';
import { keyViewer } from '../../users/index.ts';
import type { UserService, Viewer } from '../../users/index.ts';
import type { ApiKeys } from './service.ts';

const ID = '[0-9a-fA-F-]{36}';

/** The routes an API key may call, with the scope each needs. */
export const KEY_ROUTES: readonly { method: string; path: RegExp; scope: ApiScope }[] = [
  { method: 'GET', path: /^\/api\/admin\/users$/, scope: 'read:members' },
  { method: 'PATCH', path: new RegExp(`^/api/admin/users/${ID}$`), scope: 'write:members' },
  { method: 'GET', path: new RegExp(`^/api/admin/payments/members/${ID}/grants$`), scope: 'read:members' },
  { method: 'POST', path: new RegExp(`^/api/admin/payments/members/${ID}/comps$`), scope: 'write:members' },
  { method: 'DELETE', path: new RegExp(`^/api/admin/payments/members/${ID}/comps/${ID}$`), scope: 'write:members' },
  { method: 'GET', path: /^\/api\/admin\/members\/export\.csv$/, scope: 'read:members' },
  { method: 'POST', path: /^\/api\/admin\/members\/import$/, scope: 'write:members' },
  { method: 'POST', path: /^\/api\/admin\/members\/labels$/, scope: 'write:members' },
  { method: 'GET', path: /^\/api\/admin\/members\/(labels|segments)$/, scope: 'read:members' },
  { method: 'GET', path: /^\/api\/admin\/overview$/, scope: 'read:analytics' },
  { method: 'GET', path: /^\/api\/admin\/analytics\/revenue(\.csv)?$/, scope: 'read:analytics' },
];

const unauthorized = (message: string) => new AppError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });

/** The scope a route needs of a key; undefined when no key may call it. */
export function keyScope(method: string, path: string): ApiScope | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return KEY_ROUTES.find((r) => r.method === m && r.path.test(path))?.scope;
}

export type KeyViewer = (c: AppContext, key: string) => Promise<Viewer>;

export function createKeyViewer({ keys, users }: { keys: ApiKeys; users: Pick<UserService, 'profileById'> }): KeyViewer {
  return async (c, token) => {
    const scope = keyScope(c.req.method, c.req.path);
    if (!scope) throw unauthorized('API keys cannot call this route; it needs a signed-in admin.');
    const key = await keys.check(token);
    if (!key) throw unauthorized('This API key is not valid or was revoked.');
    if (!key.scopes.includes(scope)) throw new AppError('forbidden', `This API key lacks the ${scope} scope.`);
    const author = await users.profileById(key.createdBy);
    if (author?.role !== 'admin') throw new AppError('forbidden', 'The admin who made this API key is no longer an admin.');
    return keyViewer(author, key.id);
  };
}
