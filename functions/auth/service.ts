/**
 * The embedded auth service: Supabase Auth's (GoTrue's) email + password subset, behaving as the
 * hosted service does from the outside (contract: ../shared/reference/supabase-auth-contract.md).
 * This file only assembles it from its parts, one job each: sessions.ts (access and refresh tokens,
 * sign-out, the identity behind a token), links.ts (mailed links and codes, verify), passwords.ts
 * (rules, sign-in, the proof a password change needs) and accounts.ts (sign-up, the signed-in user,
 * what the product asks of an account); context.ts holds what they share, store.ts all their SQL.
 */
import { createAccounts } from './accounts.ts';
import { createAuthContext, type AuthHooks, type AuthServiceDeps } from './context.ts';
import { createLinks } from './links.ts';
import { createPasswords } from './passwords.ts';
import { createSessions } from './sessions.ts';

export type { AuthHooks, AuthServiceDeps, AuthSettings } from './context.ts';
export type { Session } from './sessions.ts';

export function createAuthService(deps: AuthServiceDeps) {
  const ctx = createAuthContext(deps);
  const sessions = createSessions(ctx);
  const links = createLinks(ctx, sessions);
  const passwords = createPasswords(ctx, sessions);
  const accounts = createAccounts(ctx, { sessions, links, passwords });

  return {
    /** The product's side of accounts (profiles, mail language), connected once every service exists. */
    connect(hooks: AuthHooks): void {
      Object.assign(ctx.hooks, hooks);
    },
    issuer: ctx.issuer,
    settings: ctx.settings,
    allowedRedirect: ctx.allowedRedirect,
    authenticate: sessions.authenticate,

    signUp: accounts.signUp,
    signInWithPassword: passwords.signInWithPassword,
    refresh: sessions.refresh,
    createConfirmedUser: accounts.createConfirmedUser,
    createConfirmedUsers: accounts.createConfirmedUsers,
    importAccounts: accounts.importAccounts,
    sessionIsLive: sessions.sessionIsLive,
    account: accounts.account,
    deleteUser: accounts.deleteUser,
    getUser: accounts.getUser,
    updateUser: accounts.updateUser,
    logout: sessions.logout,
    reauthenticate: links.reauthenticate,
    recover: links.recover,
    resend: links.resend,
    sendSignInLink: accounts.sendSignInLink,
    verify: links.verify,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
