/**
 * Request bodies of the auth API and the user object it answers with (contract sections 1 and 3).
 * Unknown fields are ignored, as GoTrue's JSON decoding does; `null` PKCE fields are accepted.
 */
import { z } from 'zod';
import { CONTROL, CONTROL_IN_TEXT } from '../platform/http/request.ts';
import type { AuthUserRow } from './tables.ts';

const MetadataKey = z
  .string()
  .max(100)
  .refine((s) => !CONTROL.test(s), 'must not contain control characters');

/** JSON values users may store as metadata: no control characters (Postgres refuses NUL), bounded depth and size. */
const MetadataValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z
      .string()
      .max(2000)
      .refine((s) => !CONTROL_IN_TEXT.test(s), 'must not contain control characters'),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(MetadataValue).max(50),
    z.record(MetadataKey, MetadataValue),
  ]),
);
const MetadataSchema = z.record(MetadataKey, MetadataValue).refine((v) => JSON.stringify(v).length <= 16_384, 'metadata is too large');

const optionalString = z.string().max(10_000).nullish();

export const SignupBody = z.looseObject({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  data: MetadataSchema.nullish(),
});

export const PasswordGrantBody = z.looseObject({ email: optionalString, phone: optionalString, password: optionalString });
export const RefreshGrantBody = z.looseObject({ refresh_token: optionalString });
export const UpdateUserBody = z.looseObject({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  /** Proof for a password change from a session that is not fresh: the current password, or the mailed code. */
  current_password: optionalString,
  nonce: optionalString,
  data: MetadataSchema.nullish(),
  app_metadata: z.unknown().optional(),
});
export const EmailBody = z.looseObject({ email: optionalString });
export const ResendBody = z.looseObject({ email: optionalString, phone: optionalString, type: optionalString });
export const OtpBody = z.looseObject({
  email: optionalString,
  phone: optionalString,
  create_user: z.boolean().nullish(),
  data: MetadataSchema.nullish(),
});
export const VerifyBody = z.looseObject({
  type: optionalString,
  token: optionalString,
  token_hash: optionalString,
  email: optionalString,
  phone: optionalString,
  redirect_to: optionalString,
});

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/** GoTrue's user object (contract 1.1) for a stored user. */
export function userJson(u: AuthUserRow) {
  const confirmed = u.emailConfirmedAt ?? undefined;
  const identityData = { sub: u.id, email: u.email, email_verified: Boolean(confirmed), phone_verified: false };
  const optional = {
    email_confirmed_at: iso(confirmed),
    confirmed_at: iso(confirmed),
    confirmation_sent_at: iso(u.confirmationSentAt),
    recovery_sent_at: iso(u.recoverySentAt),
    email_change_sent_at: iso(u.emailChangeSentAt),
    new_email: u.newEmail ?? undefined,
    last_sign_in_at: iso(u.lastSignInAt),
    banned_until: iso(u.bannedUntil),
  };
  return {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    phone: '',
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    app_metadata: u.appMetadata,
    user_metadata: u.userMetadata,
    identities: [
      {
        identity_id: u.identityId,
        id: u.id,
        user_id: u.id,
        identity_data: identityData,
        provider: 'email',
        last_sign_in_at: u.createdAt.toISOString(),
        created_at: u.createdAt.toISOString(),
        updated_at: u.updatedAt.toISOString(),
        email: u.email,
      },
    ],
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
    is_anonymous: false,
  };
}

export type UserJson = ReturnType<typeof userJson>;
