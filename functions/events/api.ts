/**
 * /api/events, mounted once (functions/api.ts): an event's registration, join link and recording
 * (routes.ts) and the member's own registrations (GET /api/events itself, the account page: a static
 * segment beside `/:slug/…` would push Hono off its RegExpRouter).
 * The staff's registrant lists are under the admin mount (/api/admin/events); an event's calendar
 * file is at /events/{slug}.ics beside its page.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/http/context.ts';
import type { Guards } from '../users/index.ts';
import { createEventRoutes, createMyEventRoutes } from './routes.ts';
import type { EventService } from './service.ts';

export { createCalendarRoutes, createEventAdminRoutes as createEventAdminApi } from './routes.ts';

export function createEventsApi({ events, guards }: { events: EventService; guards: Guards }) {
  return new Hono<AppEnv>().route('/', createMyEventRoutes({ events, guards })).route('/', createEventRoutes({ events, guards }));
}
