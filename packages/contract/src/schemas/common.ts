import '../zod-config.js';
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, isEmailShape } from '../email.js';
import { DISPLAY_NAME_MAX_LENGTH } from '../text.js';
import { ACCEPTED_TERMS_VERSION, PASSWORD_MAX_LENGTH, PROFILE_TYPES } from '../constants.js';

export const ErrorBodySchema = z.object({
  error_code: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** A non-empty e-mail of the spec's shape. */
export const EmailSchema = z
  .string()
  .trim()
  .min(1)
  .max(EMAIL_MAX_LENGTH)
  .refine((value) => isEmailShape(value), { message: 'invalid email' });

/** Passwords are length-checked by the service (to answer with the catalogue code); cap here to stop huge bodies before hashing. */
export const PasswordInputSchema = z.string().max(PASSWORD_MAX_LENGTH * 4);

export const AcceptedTermsSchema = z.object({ version: z.literal(ACCEPTED_TERMS_VERSION) });

/**
 * A typed display name: bounded here; the server checks it with checkDisplayName (text.ts) so that a
 * bad one answers ERR_INVALID_NAME, in code points, not UTF-16 units.
 */
export const DisplayNameInputSchema = z.string().max(DISPLAY_NAME_MAX_LENGTH * 4);

/**
 * An id in a path: printable characters only. A control character (a NUL above all: PostgreSQL text
 * cannot hold one) is not a lookup miss but a malformed request.
 */
export const idSchema = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]+$/u);
export const IdSchema = idSchema(64);

export const ProfileSchema = z.object({
  _id: z.string(),
  type: z.enum(PROFILE_TYPES),
  info: z.object({
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().optional(),
  }),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** Decoded session JWT payload (§3). */
export const SessionPayloadSchema = z.object({
  user: z.object({
    _id: z.string(),
    email: z.string(),
    preferences: z.record(z.string(), z.unknown()),
    profile_id: z.string().nullable(),
  }),
  exp: z.number(),
  /** 'recovery': the single-purpose token of password recovery (only good for setting the password). */
  kind: z.enum(['session', 'recovery']).optional(),
});
export type SessionPayload = z.infer<typeof SessionPayloadSchema>;

export const OkSchema = z.object({ ok: z.literal(true) });
/**
 * A sign-out's answer: `logout_url`, when the session came from a provider with a logout endpoint, is
 * where the browser goes next so that the provider's session ends too (it comes back to the sign-in page).
 */
export const LogoutResponseSchema = OkSchema.extend({ logout_url: z.string().url().optional() });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;
