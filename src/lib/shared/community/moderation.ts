/**
 * The community's moderation vocabulary, shared by the staff API's schemas (functions/community/
 * moderation/) and the admin dashboard's Moderation tab: what staff can do to a post, a thread and a
 * member, the log's action names and their words, and the limits of a category and a report.
 */

/** What staff do to one post from the queue or a thread page. */
export const POST_ACTIONS = ['approve', 'hide', 'unhide', 'delete', 'dismiss'] as const;
export type PostAction = (typeof POST_ACTIONS)[number];

/** What staff do to a thread (comments threads under articles and lessons take only lock and unlock). */
export const THREAD_ACTIONS = ['pin', 'unpin', 'lock', 'unlock', 'hide', 'unhide', 'delete', 'move'] as const;
export type ThreadAction = (typeof THREAD_ACTIONS)[number];

/** Thread actions that make sense on an article's or lesson's comments thread. */
export const COMMENTS_THREAD_ACTIONS: readonly ThreadAction[] = ['lock', 'unlock'];

/** Every action the moderation log records. */
export const LOG_ACTIONS = [
  ...POST_ACTIONS,
  ...THREAD_ACTIONS,
  'suspend',
  'unsuspend',
  'category-create',
  'category-update',
  'category-delete',
] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];

/** The log's words for each action (the Moderation tab). */
export const LOG_ACTION_LABEL: Record<LogAction, string> = {
  approve: 'Approved a post',
  hide: 'Hid',
  unhide: 'Unhid',
  delete: 'Deleted',
  dismiss: 'Dismissed the reports on a post',
  pin: 'Pinned a thread',
  unpin: 'Unpinned a thread',
  lock: 'Locked a thread',
  unlock: 'Unlocked a thread',
  move: 'Moved a thread',
  suspend: 'Suspended a member',
  unsuspend: 'Lifted a suspension',
  'category-create': 'Created a category',
  'category-update': 'Changed a category',
  'category-delete': 'Deleted a category',
};

/** Field limits (characters). */
export const MODERATION_LIMITS = {
  reportReason: 1000,
  suspensionReason: 500,
  categoryName: 80,
  categoryDescription: 500,
  /** The furthest a suspension may end (days from now); longer is "until lifted". */
  suspensionDays: 3650,
} as const;

/** Category positions (display order on /community, ascending). */
export const CATEGORY_POSITION = { min: 0, max: 10_000 } as const;

/** Suspension lengths the Moderation tab offers (days; null: until lifted). */
export const SUSPENSION_CHOICES: readonly { label: string; days: number | null }[] = [
  { label: '1 day', days: 1 },
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: 'Until lifted', days: null },
];
