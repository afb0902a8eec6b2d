/** Liveness (`/healthz`: the process serves) and readiness (`/readyz`: the database answers). */
import { Hono } from 'hono';
import type { Database } from '../db/client.ts';
import { errorResponse } from '../errors.ts';
import type { AppEnv } from '../http/context.ts';
import type { Logger } from '../logger.ts';

export function createHealthRoutes(database: Pick<Database, 'ping' | 'kind'>, logger: Logger) {
  return new Hono<AppEnv>()
    .get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }))
    .get('/readyz', async (c) => {
      const started = performance.now();
      try {
        await database.ping();
      } catch (err) {
        logger.warn({ err }, 'readiness check failed');
        return errorResponse(c, 'unavailable', 'The database is not answering.');
      }
      const ms = Math.round((performance.now() - started) * 100) / 100;
      return c.json({ status: 'ready', database: { kind: database.kind, ms } }, 200, { 'Cache-Control': 'no-store' });
    });
}
