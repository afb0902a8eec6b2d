/**
 * `GET /api/search`'s role table on both databases (a visitor, every kind of bad token, each level,
 * each staff role) for a search and for staff's `drafts=1`, and its bad input: empty, blank, too long
 * and control-character queries, operators, quotes and Unicode of every shape, unknown kinds and
 * limits out of range. Every answer is a 200 or a 4xx, never a 5xx, and every answer is private.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import { SEARCH_QUERY_MAX, type SearchAnswer } from '#shared/search.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { roleAccounts } from '../../tests/support/callers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { badTokens } from '../../tests/support/tokens.ts';

type Member = 'free' | 'subscriber' | 'premium' | 'editor' | 'admin';
type Caller = 'visitor' | Member;
const CALLERS: Caller[] = ['visitor', 'free', 'subscriber', 'premium', 'editor', 'admin'];
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  editor: { role: 'editor', accessLevel: 'premium' },
  admin: { role: 'admin', accessLevel: 'premium' },
};
const SEARCH: Record<Caller, number> = { visitor: 200, free: 200, subscriber: 200, premium: 200, editor: 200, admin: 200 };
const DRAFTS: Record<Caller, number> = { visitor: 401, free: 403, subscriber: 403, premium: 403, editor: 200, admin: 200 };

/** Raw query strings (already percent-encoded where it matters) and what each must answer. */
const BAD_INPUT: [string, string, number][] = [
  ['no q', '', 422],
  ['empty q', 'q=', 422],
  ['blank q', 'q=%20%20%09', 422],
  [`${SEARCH_QUERY_MAX + 1} characters`, `q=${'a'.repeat(SEARCH_QUERY_MAX + 1)}`, 422],
  // Past the edge's address limit (2,048 characters).
  ['10,000 characters', `q=${'word '.repeat(2000)}`, 414],
  ['a NUL', 'q=a%00b', 422],
  ['a line break', 'q=a%0Ab', 422],
  ['an escape', 'q=a%1Bb', 422],
  // Not decodable: the query keeps the characters as typed, a search like any other.
  ['a lone surrogate (UTF-8 of U+D800)', 'q=a%ED%A0%80b', 200],
  ['a cut UTF-8 sequence', 'q=a%F0%9F', 200],
  ['broken percent-encoding', 'q=%E0%A4%A', 200],
  ['an unknown type', 'q=launch&type=podcast', 422],
  ['a type named like a built-in', 'q=launch&type=constructor', 422],
  ['limit 0', 'q=launch&limit=0', 422],
  ['limit 51', 'q=launch&limit=51', 422],
  ['limit -1', 'q=launch&limit=-1', 422],
  ['limit 1.5', 'q=launch&limit=1.5', 422],
  ['limit abc', 'q=launch&limit=abc', 422],
  ['drafts=yes', 'q=launch&drafts=yes', 422],
];
/** Queries that are text like any other: 200 whatever Postgres makes of them. */
const ODD_QUERIES = [
  'a & b | !c',
  '"unclosed',
  'foo:*',
  '<->',
  '<2> a <-> b',
  "'",
  "o'brien's",
  '&|!:*()',
  '((( )))',
  '-',
  'or',
  '"" "" ""',
  '\\',
  '%',
  '🚀 launch 🛒',
  '👩‍👩‍👧‍👦',
  'مرحبا بالعالم',
  'שלום עולם',
  'e\u0301\u0301\u0301 cafe\u0301',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '\u202Eevil',
  '中文 搜索',
  `${'a '.repeat(99)}b`,
];

describe.each(DATABASE_KINDS)('search API on %s', (kind) => {
  let t: TestApp;
  let tokens: Record<Member, string>;
  let bad: Record<string, string>;

  const ask = (who: Caller | { token: string }, query: string) =>
    t.app.request(`/api/search?${query}`, {
      headers: who === 'visitor' ? {} : { authorization: `Bearer ${typeof who === 'string' ? tokens[who] : who.token}` },
    });

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    const accounts = await roleAccounts(t, `search-roles-${kind}`, ACCOUNTS);
    tokens = accounts.tokens;
    bad = await badTokens(t.database.db, tokens.admin, accounts.ids.free);
  });
  afterAll(() => t?.close());

  it('answers a search to everyone, privately', async () => {
    for (const who of CALLERS) {
      const res = await ask(who, 'q=launch');
      expect(res.status, who).toBe(SEARCH[who]);
      expect(res.headers.get('cache-control'), who).toBe('private, no-store');
      expect(res.headers.get('vary'), who).toContain('Authorization');
      const body = (await res.json()) as SearchAnswer;
      expect(Array.isArray(body.results), who).toBe(true);
    }
  });

  it('refuses every bad token with 401, with drafts or without', async () => {
    for (const [name, token] of Object.entries(bad)) {
      for (const query of ['q=launch', 'q=launch&drafts=1']) {
        const res = await ask({ token }, query);
        expect(res.status, `${name} ${query}`).toBe(401);
      }
    }
  });

  it('opens drafts to editors and admins only', async () => {
    for (const who of CALLERS) {
      const res = await ask(who, 'q=launch&drafts=1');
      expect(res.status, who).toBe(DRAFTS[who]);
      if (DRAFTS[who] !== 200) {
        const text = await res.text();
        expect(text, who).not.toContain('results');
      }
    }
    // Whoever may not ask hears so before the query is read.
    expect((await ask('visitor', 'q=&drafts=1')).status).toBe(401);
    expect((await ask('premium', 'q=&drafts=1')).status).toBe(403);
    expect((await ask('editor', 'q=&drafts=1')).status).toBe(422);
    expect((await ask('premium', 'q=launch&drafts=0')).status).toBe(200);
  });

  it('refuses bad input with 4xx, never 5xx', async () => {
    for (const [name, query, expected] of BAD_INPUT) {
      for (const who of ['visitor', 'premium', 'admin'] as const) {
        const res = await ask(who, query);
        expect(res.status, `${name} as ${who}`).toBe(expected);
        if (res.status === 422) expect(((await res.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
      }
    }
    // The longest query is taken.
    expect((await ask('premium', `q=${'a'.repeat(SEARCH_QUERY_MAX)}`)).status).toBe(200);
    expect((await ask('premium', 'q=launch&limit=50')).status).toBe(200);
  });

  it('takes operators, quotes and every kind of Unicode as text: 200, never a syntax error', async () => {
    for (const q of ODD_QUERIES) {
      for (const who of ['visitor', 'premium', 'editor'] as const) {
        const res = await ask(who, `q=${encodeURIComponent(q)}${who === 'editor' ? '&drafts=1' : ''}`);
        expect(res.status, `${JSON.stringify(q)} as ${who}`).toBe(200);
        const body = (await res.json()) as SearchAnswer;
        for (const result of body.results) expect(result.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
      }
    }
  });
});
