/**
 * Demo accounts for the embedded defaults: one per access level and one per staff role, confirmed
 * and ready to sign in, so every part of the product can be tried at once. `npm start` prints them
 * and the README lists them. Seeded only on the embedded defaults (PGlite, embedded auth, no https
 * SITE_URL) unless AUTH_SEED_DEMO says otherwise, so a deployment never has them.
 */
import type { AccessLevel, Role } from '#shared/access.ts';

export const DEMO_PASSWORD = 'beacon-demo-2026';
/**
 * DEMO_PASSWORD's bcrypt hash (cost 10), made ahead: the password is public anyway, and a seeding
 * start is spared a hash (a tenth of a second it would wait for). demo.test.ts checks the pair.
 */
export const DEMO_PASSWORD_HASH = '$2b$10$w.alzotKo2fFsXwr8UsBB.74NdKujPyMHNGSRjLNvxVqg5aejMgru';

/** The hash made ahead when the server hashes at its cost (AUTH_BCRYPT_COST), else undefined: hash it then. */
export const demoPasswordHash = (bcryptCost: number): string | undefined =>
  DEMO_PASSWORD_HASH.startsWith(`$2b$${String(bcryptCost).padStart(2, '0')}$`) ? DEMO_PASSWORD_HASH : undefined;

export const DEMO_ACCOUNTS: readonly { email: string; name: string; accessLevel: AccessLevel; role: Role }[] = [
  { email: 'free@demo.beacongrowth.co', name: 'Frankie Free', accessLevel: 'free', role: 'member' },
  { email: 'subscriber@demo.beacongrowth.co', name: 'Sam Subscriber', accessLevel: 'subscriber', role: 'member' },
  { email: 'premium@demo.beacongrowth.co', name: 'Pat Premium', accessLevel: 'premium', role: 'member' },
  { email: 'editor@demo.beacongrowth.co', name: 'Eddie Editor', accessLevel: 'premium', role: 'editor' },
  { email: 'admin@demo.beacongrowth.co', name: 'Ada Admin', accessLevel: 'premium', role: 'admin' },
];
