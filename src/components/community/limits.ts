/**
 * The server's limits on what members write (functions/community/schema.ts), mirrored for the
 * forms' `maxLength` (browser code may not import server values; limits.test.ts keeps them equal).
 */
export const COMMUNITY_LIMITS = { title: 150, body: 20_000 } as const;
