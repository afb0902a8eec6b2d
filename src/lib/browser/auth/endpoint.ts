/**
 * The browser's auth endpoint: a hosted Supabase project when the build names one
 * (PUBLIC_SUPABASE_URL, PUBLIC_SUPABASE_ANON_KEY), else our own origin's `/auth/v1`, which
 * takes any key (it never trusts the `apikey` header). Read by the client and by the header's script.
 */
const env = import.meta.env as Record<string, string | undefined>;

/** The hosted project's URL; empty for our own origin. */
export const AUTH_ENDPOINT = env.PUBLIC_SUPABASE_URL ?? '';
/** The public (anon) key sent as `apikey`. */
export const AUTH_PUBLIC_KEY = env.PUBLIC_SUPABASE_ANON_KEY || 'embedded-public-key';
