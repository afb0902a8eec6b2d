/**
 * The events API's role table: every route x every kind of caller (visitor, each access level, each
 * staff role, an expired token) with the exact status each gets, on both databases; then the join
 * link's and the recording's refusals one by one (not registered, another member's registration, a
 * level that dropped, a cancelled event, before the link opens), the staff CSV and the public
 * calendar file, which never carry what is gated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLevel, Role } from '#shared/access.ts';
import type { EventItem } from '#shared/content/registry.ts';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import type { ErrorAnswer } from '../../tests/support/answers.ts';
import { DATABASE_KINDS } from '../../tests/support/databases.ts';
import { createEvent, signedInMember } from '../../tests/support/events.ts';
import { badTokens } from '../../tests/support/tokens.ts';

type Caller = 'visitor' | 'free' | 'subscriber' | 'premium' | 'editor' | 'admin' | 'expired';
type Member = Exclude<Caller, 'visitor' | 'expired'>;
const CALLERS: Caller[] = ['visitor', 'free', 'subscriber', 'premium', 'editor', 'admin', 'expired'];
const ACCOUNTS: Record<Member, { role: Role; accessLevel: AccessLevel }> = {
  free: { role: 'member', accessLevel: 'free' },
  subscriber: { role: 'member', accessLevel: 'subscriber' },
  premium: { role: 'member', accessLevel: 'premium' },
  // Staff count as premium whatever their profile's level says.
  editor: { role: 'editor', accessLevel: 'free' },
  admin: { role: 'admin', accessLevel: 'free' },
};

/** Statuses by caller: visitors and expired tokens 401 unless said otherwise. */
const only = (ok: Member[], otherwise = 403, visitor = 401): Record<Caller, number> =>
  Object.fromEntries(
    CALLERS.map((who) => [who, who === 'visitor' ? visitor : who === 'expired' ? 401 : ok.includes(who) ? 200 : otherwise]),
  ) as Record<Caller, number>;
/** How Hono lists the calendar file's route. */
const CALENDAR_ROUTE = ':file{[a-z0-9-]+\\.ics}';
const MEMBERS: Member[] = ['free', 'subscriber', 'premium', 'editor', 'admin'];
const ENTITLED: Member[] = ['premium', 'editor', 'admin'];

describe.each(DATABASE_KINDS)('events API on %s', (kind) => {
  let t: TestApp;
  const members = {} as Record<Member, Awaited<ReturnType<typeof signedInMember>>>;
  let expired = '';
  /** Starts in 10 minutes: the join link is open. Premium, editor and admin are registered. */
  let live: EventItem;
  /** Starts tomorrow: registration rows of the table. */
  let later: EventItem;

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { AUTH_BCRYPT_COST: '4' });
    for (const who of MEMBERS)
      members[who] = await signedInMember(t, `${who}-${kind}@events.test`, ACCOUNTS[who].role, ACCOUNTS[who].accessLevel);
    expired = (await badTokens(t.database.db, members.premium.token, members.free.id)).expired!;
    live = await createEvent(t, 10);
    later = await createEvent(t, 24 * 60, { capacity: 50 });
    for (const who of ENTITLED) expect((await call(who, `/api/events/${live.slug}/registration`, 'POST')).status).toBe(200);
  });
  afterAll(() => t?.close());

  function call(who: Caller | { token: string }, path: string, method = 'GET') {
    const token = typeof who === 'object' ? who.token : who === 'visitor' ? undefined : who === 'expired' ? expired : members[who].token;
    return t.app.request(path, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
  }

  const TABLE: { route: string; path: (slug?: string) => string; method?: string; want: Record<Caller, number> }[] = [
    { route: 'GET /api/events', path: () => '/api/events', want: only(MEMBERS) },
    {
      route: 'GET /api/events/:slug/registration',
      path: (slug = later.slug) => `/api/events/${slug}/registration`,
      want: only(MEMBERS, 403, 200),
    },
    {
      route: 'POST /api/events/:slug/registration',
      method: 'POST',
      path: (slug = later.slug) => `/api/events/${slug}/registration`,
      want: only(ENTITLED),
    },
    {
      route: 'DELETE /api/events/:slug/registration',
      method: 'DELETE',
      path: (slug = later.slug) => `/api/events/${slug}/registration`,
      want: only(MEMBERS),
    },
    { route: 'GET /api/events/:slug/join', path: (slug = live.slug) => `/api/events/${slug}/join`, want: only(ENTITLED) },
    { route: 'GET /api/events/:slug/recording', path: (slug = live.slug) => `/api/events/${slug}/recording`, want: only(ENTITLED) },
    {
      route: 'GET /api/admin/events/:slug/registrants',
      path: (slug = live.slug) => `/api/admin/events/${slug}/registrants`,
      want: only(['editor', 'admin']),
    },
    {
      route: 'GET /api/admin/events/:slug/registrants.csv',
      path: (slug = live.slug) => `/api/admin/events/${slug}/registrants.csv`,
      want: only(['editor', 'admin']),
    },
    // Public: a token, even an expired one, is not read.
    {
      route: 'GET /events/:slug.ics',
      path: (slug = live.slug) => `/events/${slug}.ics`,
      want: { ...only(MEMBERS, 200, 200), expired: 200 },
    },
  ];

  it('has a row for every events route the app serves', () => {
    const served = t.app
      .endpoints()
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => /\/events\b/.test(r) && !r.includes('/api/public/') && !r.includes('/api/content/'))
      .map((r) => r.replace(CALENDAR_ROUTE, ':slug.ics'));
    expect([...new Set(served)].sort()).toEqual(TABLE.map((row) => row.route).sort());
  });

  it.each(TABLE)('$route answers each caller as its rule says', async ({ path, method = 'GET', want }) => {
    const got: Record<string, number> = {};
    for (const who of CALLERS) {
      const res = await call(who, path(), method);
      got[who] = res.status;
      if (!path().endsWith('.ics')) {
        expect(res.headers.get('cache-control'), who).toMatch(/private, no-store|^no-store$/);
        if (res.status < 400) expect(res.headers.get('vary') ?? '', who).toMatch(/authorization/i);
      }
      if (res.status === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer');
      // A member below the event's level is told which level it needs (the island's gate).
      if (res.status === 403 && !path().includes('/admin/'))
        expect(((await res.json()) as ErrorAnswer).error.requiredLevel).toBe('premium');
    }
    expect(got).toEqual(want);
  });

  it('answers 404 for unknown, malformed and huge slugs on every route', async () => {
    for (const slug of ['no-such-event', 'Bad_Slug', 'a'.repeat(300)]) {
      for (const row of TABLE.filter((r) => r.route.includes(':slug'))) {
        const res = await call('admin', row.path(slug), row.method);
        expect(res.status, `${row.route} ${slug.slice(0, 20)}`).toBe(404);
      }
    }
  });

  it('refuses the join link and the recording to every member who is not an entitled registrant', async () => {
    const join = (who: Member | { token: string }) => call(who, `/api/events/${live.slug}/join`);
    // A premium member who did not register: 403, though their level would do.
    const stranger = await signedInMember(t, `stranger-${kind}@events.test`, 'member', 'premium');
    expect((await join(stranger)).status).toBe(403);
    expect((await call(stranger, `/api/events/${live.slug}/recording`)).status).toBe(403);
    // Another event's registration does not open this one.
    expect((await call(stranger, `/api/events/${later.slug}/registration`, 'POST')).status).toBe(200);
    expect((await join(stranger)).status).toBe(403);
    // A registrant whose level dropped below the event's: 403 at once.
    const dropping = await signedInMember(t, `dropping-${kind}@events.test`, 'member', 'premium');
    expect((await call(dropping, `/api/events/${live.slug}/registration`, 'POST')).status).toBe(200);
    const opened = await join(dropping);
    expect(await opened.json()).toEqual({ url: live.joinUrl });
    await t.services.users.assign(dropping.id, 'member', 'subscriber');
    expect((await join(dropping)).status).toBe(403);
    expect((await call(dropping, `/api/events/${live.slug}/recording`)).status).toBe(403);
    // Cancelling the registration closes it too.
    expect((await call('premium', `/api/events/${live.slug}/registration`, 'DELETE')).status).toBe(200);
    expect((await join('premium')).status).toBe(403);
    expect((await call('premium', `/api/events/${live.slug}/registration`, 'POST')).status).toBe(200);
    expect((await join('premium')).status).toBe(200);
  });

  it('answers 409 with when it opens before the join link opens, and refuses a cancelled event', async () => {
    const soon = await createEvent(t, 60 * 3);
    expect((await call('premium', `/api/events/${soon.slug}/registration`, 'POST')).status).toBe(200);
    const early = await call('premium', `/api/events/${soon.slug}/join`);
    expect(early.status).toBe(409);
    const body = (await early.json()) as ErrorAnswer & { error: { opensAt: string } };
    expect(body.error.code).toBe('conflict');
    expect(Date.parse(body.error.opensAt)).toBe(Date.parse(soon.startsAt) - 15 * 60_000);
    expect(JSON.stringify(body)).not.toContain('SECRET');
    // Staff cancel it: registration closes (409 both ways) and the join link is refused.
    await t.services.content.update('event', soon.id, { cancelled: true });
    expect((await call('admin', `/api/events/${soon.slug}/registration`, 'POST')).status).toBe(409);
    expect((await call('premium', `/api/events/${soon.slug}/registration`, 'DELETE')).status).toBe(409);
    expect((await call('premium', `/api/events/${soon.slug}/join`)).status).toBe(403);
  });

  it('exports registrants as CSV for staff, formulas defused', async () => {
    const sly = await signedInMember(t, `sly-${kind}@events.test`, 'member', 'premium');
    await t.services.users.updateMe({ id: sly.id, email: sly.email, role: 'member', accessLevel: 'premium' }, { name: '=HYPERLINK("x")' });
    expect((await call(sly, `/api/events/${live.slug}/registration`, 'POST')).status).toBe(200);
    const res = await call('editor', `/api/admin/events/${live.slug}/registrants.csv`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${live.slug}-registrants.csv"`);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('name,email,status,registered_at,cancelled_at');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^"'=HYPERLINK\\(""x""\\)",${sly.email},registered,\\d{4}-`)));
    const json = (await (await call('admin', `/api/admin/events/${live.slug}/registrants`)).json()) as { registrants: { email: string }[] };
    expect(json.registrants.map((r) => r.email)).toContain(members.editor.email);
  });

  it('serves the calendar file to anyone, without the join URL or the recording', async () => {
    const res = await call('visitor', `/events/${live.slug}.ics`);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const ics = (await res.text()).replace(/\r\n[ \t]/g, '');
    expect(ics).toContain(`UID:${live.id}@`);
    expect(ics).not.toContain('SECRET');
    expect((await call('visitor', '/events/no-such-event.ics')).status).toBe(404);
    // No answer of the public and member reads carries what is gated.
    for (const path of [`/api/events/${live.slug}/registration`, '/api/events', `/api/public/events/${live.slug}`, '/api/public/events']) {
      expect(await (await call('free', path)).text(), path).not.toContain('SECRET');
    }
  });
});
