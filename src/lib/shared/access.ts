/**
 * Access levels, roles and the one access rule shared by the browser (display) and the server
 * (enforcement). Ranks follow the spec: free 0 < subscriber 1 < premium 2. Staff roles (editor,
 * admin) count as premium whatever level their profile holds.
 */
export const ACCESS_LEVELS = ['free', 'subscriber', 'premium'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** What staff may do (not what they pay for): member, editor, admin. */
export const ROLES = ['member', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<AccessLevel, number> = { free: 0, subscriber: 1, premium: 2 };

/** Numeric rank of a level; unknown values rank as free. */
export function accessRank(level: string | null | undefined): number {
  return level && Object.hasOwn(RANK, level) ? RANK[level as AccessLevel] : 0;
}

/** Whether a role is staff (editor or admin). */
export function isStaff(role: string | null | undefined): boolean {
  return role === 'editor' || role === 'admin';
}

/** A viewer: `null` when not signed in. The role is optional: members have none to show. */
export type Viewer = { accessLevel: AccessLevel; role?: Role | null } | null;

export type AccessDecision = { allowed: true } | { allowed: false; reason: 'login_required' | 'upgrade_required' };

/** The level a signed-in viewer reads at: their own, or premium for staff. */
export function effectiveLevel(viewer: NonNullable<Viewer>): AccessLevel {
  return isStaff(viewer.role) ? 'premium' : viewer.accessLevel;
}

/**
 * Whether a viewer may see an item requiring `required`. A visitor who is not signed in has no access
 * even to free items (the spec's gate card shows for them).
 */
export function checkAccess(viewer: Viewer, required: AccessLevel): AccessDecision {
  if (!viewer) return { allowed: false, reason: 'login_required' };
  if (accessRank(effectiveLevel(viewer)) >= accessRank(required)) return { allowed: true };
  return { allowed: false, reason: 'upgrade_required' };
}

/** Human label for a level. */
export function accessLabel(level: AccessLevel): string {
  return level === 'free' ? 'Free' : level === 'subscriber' ? 'Subscriber' : 'Premium';
}

/** The gate card's copy for an item's level (spec point 4, "Gate cards"); `what` names the gated part. */
export function gateCopy(level: AccessLevel, what: string): { title: string; text: string } {
  if (level === 'premium') return { title: 'Premium Content', text: `This ${what} is available exclusively to premium members.` };
  if (level === 'subscriber') return { title: 'Subscriber Content', text: `This ${what} is available to subscribers.` };
  return { title: 'Restricted Content', text: `This ${what} requires a higher access level.` };
}

const FREE_VERB: Record<string, string> = {
  article: 'read it',
  issue: 'read it',
  lesson: 'open it',
  download: 'download it',
  event: 'register',
};

/** What a gate card shows: an account is all a visitor needs for a free item; otherwise the spec's copy and Upgrade Now. */
export type GateKind = 'account' | 'upgrade';

/**
 * The gate for a viewer (beyond the spec's one card): a visitor who is not signed in, on an item
 * at the free level, needs only a free account, so the card says 'Free with an account' and offers
 * Sign up and Sign in rather than 'Restricted Content… requires a higher access level' with Upgrade
 * Now. Everyone else (members below the level, visitors on paid items) gets the spec's copy.
 */
export function gateFor(level: AccessLevel, what: string, signedIn: boolean): { kind: GateKind; title: string; text: string } {
  if (level === 'free' && !signedIn) {
    const verb = Object.hasOwn(FREE_VERB, what) ? FREE_VERB[what] : 'see it';
    return { kind: 'account', title: 'Free with an account', text: `This ${what} is free for members. Sign up or sign in to ${verb}.` };
  }
  return { kind: 'upgrade', ...gateCopy(level, what) };
}
