/**
 * What the product needs from a hosted Supabase project beyond the browser's sign-in: deleting an
 * account when its member asks (the admin API, with the service-role key, through supabase-js).
 */
import { createClient } from '@supabase/supabase-js';
import { AppError } from '../errors.ts';

export async function deleteHostedAccount(hosted: { url: string; serviceRoleKey?: string }, userId: string): Promise<void> {
  if (!hosted.serviceRoleKey) {
    throw new AppError(
      'unavailable',
      'Account deletion needs SUPABASE_SERVICE_ROLE_KEY on the server. Please contact us to delete your account.',
    );
  }
  const admin = createClient(hosted.url, hosted.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error } = await admin.auth.admin.deleteUser(userId);
  if (error && error.status !== 404) throw error;
}
