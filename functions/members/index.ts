/**
 * The members' business tools as compose.ts builds them (issue 35): the filter, labels and segments
 * (service.ts), the CSV import with what it needs of the auth, billing and newsletter domains, and
 * the API keys with the guard routes opt into.
 */
import { AppError } from '../platform/errors.ts';
import type { Db, DbOrTx } from '../platform/db/client.ts';
import type { UserService } from '../users/index.ts';
import { memberData, type WebhookEmitter } from '../outbound/index.ts';
import { createMemberImport, type ImportDeps } from './csv/import.ts';
import { createKeyViewer } from './keys/guard.ts';
import { createApiKeys } from './keys/service.ts';
import { createMemberService } from './service.ts';

export interface MembersDeps {
  db: Db;
  users: Pick<UserService, 'profileById'>;
  /** The embedded auth service's bulk accounts; undefined with a hosted sign-in service (an import then updates members only). */
  importAccounts: ((tx: DbOrTx, list: { email: string; name: string | null }[]) => Promise<Map<string, string>>) | undefined;
  addComp: ImportDeps['addComp'];
  subscribe: ImportDeps['subscribe'];
  /** Outbound webhooks: member.created for each member an import makes. */
  webhooks: WebhookEmitter;
}

export function createMembers({ db, users, importAccounts, addComp, subscribe, webhooks }: MembersDeps) {
  const keys = createApiKeys({ db });
  const createAccounts: ImportDeps['createAccounts'] =
    importAccounts ??
    ((_tx, list) => {
      if (list.length === 0) return Promise.resolve(new Map());
      throw new AppError(
        'unavailable',
        'New members cannot be imported with a hosted sign-in service: invite them there first, then import to complete their profiles.',
      );
    });
  return {
    members: createMemberService({ db }),
    imports: createMemberImport({
      db,
      createAccounts,
      addComp,
      subscribe,
      created: (tx, made) =>
        webhooks.emitMany(
          tx,
          'member.created',
          made.map((p) => ({ data: { member: memberData(p) }, userId: p.id })),
        ),
    }),
    apiKeys: keys,
    /** The admin an API key acts as, for the routes keys may call (identify asks). */
    keyViewer: createKeyViewer({ keys, users }),
  };
}

export type Members = ReturnType<typeof createMembers>;

// The front door (issue 37): what other domains import from this one.
export type { MemberService } from './service.ts';
