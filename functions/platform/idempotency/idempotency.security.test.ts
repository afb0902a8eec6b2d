/**
 * The Idempotency-Key middleware's tables, on both databases, on a member's write (an event
 * registration): every kind of bad key gets 400 in the one error shape from every kind of caller,
 * before anything runs or is written; and a member's key, sent again by every kind of caller, is
 * replayed to that member alone: another member's request runs as their own, and a visitor, a
 * member below the event's level, an expired or forged token of the member are answered by the route
 * (401, 403), never with the member's kept answer, and leave no key behind.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventItem } from '#shared/content/registry.ts';
import { createTestApp, type TestApp } from '../../../tests/support/app.ts';
import type { ErrorAnswer } from '../../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../../tests/support/databases.ts';
import { createEvent, signedInMember } from '../../../tests/support/events.ts';
import { tempDir } from '../../../tests/support/temp.ts';
import { badTokens } from '../../../tests/support/tokens.ts';
import { eventRegistrations } from '../../events/tables.ts';
import { idempotencyKeys } from './tables.ts';

type Caller = 'visitor' | 'free' | 'owner' | 'other' | 'expired' | 'forged';
const CALLERS: Caller[] = ['visitor', 'free', 'owner', 'other', 'expired', 'forged'];

const BAD_KEYS: [string, string][] = [
  ['an empty key', ''],
  ['a key of 256 characters', 'k'.repeat(256)],
  ['a control character', 'key\u0001one'],
  ['a tab', 'key\tone'],
  ['DEL', 'key\u007f'],
  ['a space (two keys joined)', 'one, two'],
  ['a character beyond ASCII', 'clé'],
];

/** The member's key sent again by each caller: the status, and whether the answer is the member's kept one. */
const REPLAYS: Record<Caller, { status: number; replayed: boolean }> = {
  owner: { status: 200, replayed: true },
  other: { status: 200, replayed: false },
  free: { status: 403, replayed: false },
  visitor: { status: 401, replayed: false },
  expired: { status: 401, replayed: false },
  forged: { status: 401, replayed: false },
};

describe.each(DATABASE_KINDS)('Idempotency-Key security on %s', (kind) => {
  let t: TestApp;
  let event: EventItem;
  const tokens = {} as Record<Caller, string | undefined>;
  const ids = {} as Record<'owner' | 'other' | 'free', string>;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4', DATA_DIR: await tempDir('idempotency-security') });
    event = await createEvent(t, 48 * 60);
    for (const [who, level] of [
      ['owner', 'premium'],
      ['other', 'premium'],
      ['free', 'free'],
    ] as const) {
      const m = await signedInMember(t, `${who}-${kind}@idempotency.test`, 'member', level);
      tokens[who] = m.token;
      ids[who] = m.id;
    }
    const forged = await badTokens(t.database.db, tokens.owner!, ids.other);
    tokens.expired = forged.expired;
    tokens.forged = forged['a tampered payload'];
    tokens.visitor = undefined;
  });
  afterAll(() => t?.close());

  const register = (who: Caller, key: string) =>
    t.app.request(`/api/events/${event.slug}/registration`, {
      method: 'POST',
      headers: { 'idempotency-key': key, ...(tokens[who] ? { authorization: `Bearer ${tokens[who]}` } : {}) },
    });
  const registrations = async () => t.database.db.select().from(eventRegistrations).where(eq(eventRegistrations.eventId, event.id));

  describe.each(BAD_KEYS)('%s', (_label, key) => {
    it.each(CALLERS)('is refused with 400 for the %s, nothing run or kept', async (who) => {
      const before = (await registrations()).length;
      const res = await register(who, key);
      expect(res.status).toBe(400);
      const body = (await res.json()) as ErrorAnswer;
      expect(body.error.code).toBe('bad_request');
      expect(body.error.message).toContain('Idempotency-Key');
      expect(await registrations()).toHaveLength(before);
      expect(await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
    });
  });

  it('accepts a key of 255 visible characters', async () => {
    const res = await register('owner', `~${'k'.repeat(254)}`);
    expect(res.status).toBe(200);
  });

  it.each(CALLERS)("replays the owner's key to the owner alone: the %s", async (who) => {
    const key = randomUUID();
    const first = await register('owner', key);
    expect(first.status).toBe(200);
    const res = await register(who, key);
    expect(res.status).toBe(REPLAYS[who].status);
    expect(res.headers.get('idempotent-replayed') === 'true').toBe(REPLAYS[who].replayed);
    if (REPLAYS[who].status === 200) expect(await res.json()).toMatchObject({ registered: true });
    // One key for the owner (and the other member's own); the refused left none to block their retry.
    const kept = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(kept.map((row) => row.scope).sort()).toEqual(who === 'other' ? [ids.owner, ids.other].sort() : [ids.owner]);
  });

  it('ignores the header on reads', async () => {
    const res = await t.app.request(`/api/events/${event.slug}/registration`, {
      headers: { 'idempotency-key': '', authorization: `Bearer ${tokens.owner}` },
    });
    expect(res.status).toBe(200);
  });
});
