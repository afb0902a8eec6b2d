/**
 * The events API. Members (`/api/events`): the island's registration state (visitors get the seats
 * left), registering and cancelling (a live session; the level checked with the one access rule),
 * the join link and the recording (registered, entitled members only, at request time); and at
 * `/api/events` the member's upcoming events. Staff (`/api/admin/events`): an event's registrants as JSON and CSV.
 * Public (`/events/{slug}.ics`): the calendar file, mounted before the site's pages. Every answer
 * behind `identify` is private (`private, no-store`, `Vary: Authorization`).
 */
import { slugParam } from '../platform/http/request.ts';
import { Hono } from 'hono';
import { SlugSchema } from '#shared/content/schema.ts';
import { AppError, errorBody } from '../platform/errors.ts';
import type { AppContext, AppEnv } from '../platform/http/context.ts';
import type { Guards } from '../users/index.ts';
import { requireViewer } from '../users/index.ts';
import type { RegistrantList } from './registrants.ts';
import type { EventService } from './service.ts';

const slugOf = (c: AppContext) => slugParam(c, 'slug', 'Event');

/** A file to save: its type, a safe name (slugs only hold `a-z0-9-`) and no caching. */
const fileHeaders = (type: string, filename: string) => ({
  'Content-Type': type,
  'Content-Disposition': `attachment; filename="${filename}"`,
});

export function createEventRoutes({ events, guards }: { events: EventService; guards: Guards }) {
  const { member, live } = guards;
  return (
    new Hono<AppEnv>()
      .use(guards.identify)
      .get('/:slug/registration', async (c) => c.json(await events.state(c.get('viewer'), slugOf(c))))
      // Writes: only from a session that is still signed in.
      .post('/:slug/registration', live, async (c) => c.json(await events.register(requireViewer(c), slugOf(c))))
      .delete('/:slug/registration', live, async (c) => c.json(await events.cancel(requireViewer(c), slugOf(c))))
      .get('/:slug/join', member, async (c) => {
        const answer = await events.join(requireViewer(c), slugOf(c));
        if (answer.open) return c.json({ url: answer.url }, 200);
        // The one error shape, plus when the link opens (the island shows the button then).
        const refused = errorBody('conflict', 'The join link opens 15 minutes before the start.', c.get('requestId'));
        return c.json({ error: { ...refused.error, opensAt: answer.opensAt } }, 409);
      })
      .get('/:slug/recording', member, async (c) => c.json(await events.recording(requireViewer(c), slugOf(c))))
  );
}

/** The events API as the browser's typed client (hono/client) sees it. */
export type EventRoutes = ReturnType<typeof createEventRoutes>;

/** The member's upcoming events, `GET /api/events` (the account page). */
export function createMyEventRoutes({ events, guards }: { events: EventService; guards: Guards }) {
  return new Hono<AppEnv>().get('/', guards.identify, guards.member, async (c) => c.json(await events.mine(requireViewer(c))));
}

/** The member's events as the browser's typed client sees them. */
export type MyEventRoutes = ReturnType<typeof createMyEventRoutes>;

export function createEventAdminRoutes({ registrants, guards }: { registrants: RegistrantList; guards: Guards }) {
  const { identify, live } = guards;
  const staff = guards.staff('see event registrants');
  // Other people's data: reads too need a session that is still signed in.
  return new Hono<AppEnv>()
    .get('/:slug/registrants', identify, staff, live, async (c) => c.json(await registrants.list(slugOf(c))))
    .get('/:slug/registrants.csv', identify, staff, live, async (c) => {
      const { filename, body } = await registrants.csv(slugOf(c));
      return c.body(body, 200, fileHeaders('text/csv; charset=utf-8', filename));
    });
}

/** The staff events API as the browser's typed client sees it. */
export type EventAdminRoutes = ReturnType<typeof createEventAdminRoutes>;

/** The public calendar file of an event, `/events/{slug}.ics`; 404 for unknown slugs. */
export function createCalendarRoutes({ events }: { events: EventService }) {
  return new Hono<AppEnv>().get('/events/:file{[a-z0-9-]+\\.ics}', async (c) => {
    const slug = SlugSchema.safeParse(c.req.param('file').slice(0, -'.ics'.length));
    if (!slug.success) throw new AppError('not_found', 'Event not found');
    const { filename, body } = await events.calendar(slug.data);
    return c.body(body, 200, fileHeaders('text/calendar; charset=utf-8', filename));
  });
}
