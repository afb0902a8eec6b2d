/** The admin role check shared by the admin API (email dashboard, users, overview, content). */
import { AppError } from '../platform/errors.ts';
import type { AppMiddleware } from '../platform/http/context.ts';
import { requireViewer } from '../users/identity.ts';

/** 401 when signed out, 403 for anyone but an admin (premium members and editors included). */
export const adminOnly: AppMiddleware = async (c, next) => {
  if (requireViewer(c).role !== 'admin') throw new AppError('forbidden', 'Only administrators can use this.');
  await next();
};
