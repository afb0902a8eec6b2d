/**
 * Who calls the app in a suite: members signed up and signed in on a test app (one per call, or one
 * per role for a role table), and a caller that sends a JSON request with their token. Shared by the
 * payments suites (grants, offers, gifts) and their role tables.
 */
import type { AccessLevel, Role } from '#shared/access.ts';
import type { TestApp } from './app.ts';

const PASSWORD = 'callers suite pass';

/** A staff route's role table: who calls, and their accounts (a free and a premium member, an editor, an admin). */
export type RoleCaller = 'anonymous' | 'free' | 'premium' | 'editor' | 'admin';
export type RoleMember = Exclude<RoleCaller, 'anonymous'>;
export const ROLE_CALLERS: RoleCaller[] = ['anonymous', 'free', 'premium', 'editor', 'admin'];
export const ROLE_ACCOUNTS: Record<RoleMember, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  admin: { role: 'admin', accessLevel: 'premium' },
};
/** Admins only: 401 signed out, 403 for every other member. */
export const ADMIN_ONLY = { anonymous: 401, free: 403, premium: 403, editor: 403, admin: 200 } satisfies Record<RoleCaller, number>;

/** A JSON request to the app, with a bearer token when given (GET without a body, POST with one, unless `method` says). */
export function apiCaller(t: TestApp) {
  return (token: string | undefined, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
    t.app.request(path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** Makes a new confirmed member each call (addresses numbered under `label`), signed in. */
export function memberMaker(t: TestApp, label: string, defaultName = 'Ana Member') {
  let n = 0;
  return async (name = defaultName) => {
    const email = `member${n++}-${label}@callers.test`;
    const id = await t.services.auth.createConfirmedUser(email, PASSWORD, name);
    const { access_token } = await t.services.auth.signInWithPassword({ email, password: PASSWORD });
    return { id, email, token: access_token };
  };
}

/** One signed-in account per role of a role table, each at its role and level (through the grants ledger). */
export async function roleAccounts<M extends string>(
  t: TestApp,
  label: string,
  accounts: Record<M, { role: Role; accessLevel: AccessLevel }>,
) {
  const ids = {} as Record<M, string>;
  const tokens = {} as Record<M, string>;
  for (const who of Object.keys(accounts) as M[]) {
    const email = `${who}-${label}@roles.test`;
    ids[who] = await t.services.auth.createConfirmedUser(email, PASSWORD, `The ${who}`);
    await t.services.users.assign(ids[who], accounts[who].role, accounts[who].accessLevel);
    tokens[who] = (await t.services.auth.signInWithPassword({ email, password: PASSWORD })).access_token;
  }
  return { ids, tokens };
}
