/** The admin role check and query-string validation shared by the admin API (email dashboard, users, overview). */
import { z } from 'zod';
import { AppError, fieldErrors } from '../errors.ts';
import type { AppContext, AppMiddleware } from '../lib/context.ts';
import { requireViewer } from '../users/identity.ts';

/** 401 when signed out, 403 for anyone but an admin (premium members and editors included). */
export const adminOnly: AppMiddleware = async (c, next) => {
  if (requireViewer(c).role !== 'admin') throw new AppError('forbidden', 'Only administrators can use this.');
  await next();
};

/** `?limit`: 1 to 50, default 10 (what the dashboard sends). */
export const LimitParam = z.coerce
  .number({ error: 'limit must be a number' })
  .int('limit must be a whole number')
  .min(1, 'limit must be at least 1')
  .max(50, 'limit must be at most 50')
  .default(10);

/** The query string read against `schema` (unknown parameters ignored); 422 with the fields otherwise. */
export function readQuery<S extends z.ZodType>(c: AppContext, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new AppError('validation_failed', 'The query is not valid.', { fields: fieldErrors(parsed.error) });
  return parsed.data;
}
