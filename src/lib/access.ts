/**
 * Access levels and the one access rule shared by the browser (display) and the server (enforcement).
 * Ranks follow the spec: free 0 < subscriber 1 < premium 2.
 */
export const ACCESS_LEVELS = ['free', 'subscriber', 'premium'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

const RANK: Record<AccessLevel, number> = { free: 0, subscriber: 1, premium: 2 };

/** Numeric rank of a level; unknown values rank as free. */
export function accessRank(level: string | null | undefined): number {
  return level && Object.hasOwn(RANK, level) ? RANK[level as AccessLevel] : 0;
}

/** A viewer: `null` when not signed in. */
export type Viewer = { accessLevel: AccessLevel } | null;

export type AccessDecision = { allowed: true } | { allowed: false; reason: 'login_required' | 'upgrade_required' };

/**
 * Whether a viewer may see an item requiring `required`. A visitor who is not signed in has no access
 * even to free items (the spec's gate card shows for them).
 */
export function checkAccess(viewer: Viewer, required: AccessLevel): AccessDecision {
  if (!viewer) return { allowed: false, reason: 'login_required' };
  if (accessRank(viewer.accessLevel) >= accessRank(required)) return { allowed: true };
  return { allowed: false, reason: 'upgrade_required' };
}

/** Human label for a level. */
export function accessLabel(level: AccessLevel): string {
  return level === 'free' ? 'Free' : level === 'subscriber' ? 'Subscriber' : 'Premium';
}
