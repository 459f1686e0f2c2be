import '../zod-config.js';
import { z } from 'zod';
import { CODE_LENGTH, LANGUAGES, PASSKEY_NAME_MAX } from '../constants.js';
import { EmailSchema, IdSchema, PasswordInputSchema, ProfileSchema } from './common.js';
import { TwoStepEnrolmentRequiredSchema } from '../admin.js';

/**
 * Passkeys and two-step verification. The WebAuthn messages are the JSON forms of
 * @simplewebauthn (base64url strings); their content is checked by the server's verification, the
 * schemas only bound their size and shape.
 */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/);
const captchaToken = z.string().max(4096).optional();

export const PasskeyRegistrationResponseSchema = z.object({
  id: b64url(1366),
  rawId: b64url(1366),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(8192),
    attestationObject: b64url(65536),
    authenticatorData: b64url(65536).optional(),
    transports: z.array(z.string().max(32)).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(8192).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export const PasskeyAuthenticationResponseSchema = z.object({
  id: b64url(1366),
  rawId: b64url(1366),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(8192),
    authenticatorData: b64url(65536),
    signature: b64url(8192),
    userHandle: b64url(1024).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** Options handed to the browser (navigator.credentials.create / .get through @simplewebauthn/browser). */
export const PasskeyOptionsSchema = z.object({ options: z.record(z.string(), z.unknown()) });

// POST /v2/user/passkeys (signed in)
export const AddPasskeyRequestSchema = z.object({
  response: PasskeyRegistrationResponseSchema,
  /** The device's name as the browser describes it; the user can rename it later. */
  name: z.string().trim().min(1).max(PASSKEY_NAME_MAX).optional(),
  language: z.enum(LANGUAGES).optional(),
});
// PATCH /v2/user/passkeys/:id
export const RenamePasskeyRequestSchema = z.object({ name: z.string().trim().min(1).max(PASSKEY_NAME_MAX) });
export const PasskeyIdParamsSchema = z.object({ id: IdSchema });

export const PasskeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  created_at: z.string(),
  /** null until its first sign-in. */
  last_used_at: z.string().nullable(),
  /** Synced between the user's devices (backed up) by its provider. */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof PasskeySchema>;

// GET /v2/user/security
export const SecurityStateSchema = z.object({
  passkeys: z.array(PasskeySchema),
  totp: z.boolean(),
  /** Unused recovery codes left (0 when two-step verification is off). */
  recovery_codes_left: z.number().int(),
  /** Single-sign-on accounts: their provider does two-step verification. */
  totp_available: z.boolean(),
  has_password: z.boolean(),
  /** How this account can prove it is the holder again before a factor change (the first one is offered first). */
  reauth: z.array(z.enum(['password', 'passkey', 'totp', 'sso'])).optional(),
});
export type SecurityState = z.infer<typeof SecurityStateSchema>;

// POST /v2/user/totp/setup: a new secret, not yet on until confirmed by one code
export const TotpSetupResponseSchema = z.object({
  secret: z.string(),
  uri: z.string(),
  /** The otpauth URI as an SVG QR code, drawn on the server (no outside service). */
  qr_svg: z.string(),
});
export type TotpSetupResponse = z.infer<typeof TotpSetupResponseSchema>;

const sixDigits = z.string().regex(new RegExp(`^\\d{${CODE_LENGTH}}$`));
// POST /v2/user/totp/enable
export const TotpEnableRequestSchema = z.object({ code: sixDigits, language: z.enum(LANGUAGES).optional() });
export const RecoveryCodesResponseSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponseSchema>;
// POST /v2/user/totp/disable
export const TotpDisableRequestSchema = z.object({
  password: PasswordInputSchema,
  code: z.string().trim().max(32),
  language: z.enum(LANGUAGES).optional(),
});
// POST /v2/user/recovery-codes: a new set (the old ones stop working), with a current code
export const NewRecoveryCodesRequestSchema = z.object({ code: sixDigits });

/** POST /auth/login's answer for an account with two-step verification: no session yet. */
export const SecondStepRequiredSchema = z.object({
  second_step: z.literal('totp'),
  /** Short-lived, single-use; answers POST /auth/login/second-step once. */
  pending_token: z.string(),
  /** The domain lets a completed second step trust this browser (TRUSTED_BROWSER_TTL_MS). */
  trust_allowed: z.boolean().optional(),
});
export type SecondStepRequired = z.infer<typeof SecondStepRequiredSchema>;
export const LoginResponseSchema = z.union([
  z.object({ token: z.string(), profiles: z.array(ProfileSchema) }),
  SecondStepRequiredSchema,
]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
/**
 * POST /auth/login's answers: LoginResponse, or (a domain that requires two-step verification, a person
 * without it) the enrolment step first. Kept apart from LoginResponse, which other routes answer too.
 */
export const PasswordLoginResponseSchema = z.union([...LoginResponseSchema.options, TwoStepEnrolmentRequiredSchema]);
export type PasswordLoginResponse = z.infer<typeof PasswordLoginResponseSchema>;

// POST /auth/login/second-step
export const SecondStepRequestSchema = z.object({
  /** The address signed in with: the throttle counts per (address, client) like the other code checks. */
  email: EmailSchema,
  pending_token: z.string().max(512),
  /** Six digits from the app, or a recovery code. */
  code: z.string().trim().max(32),
  captcha_token: captchaToken,
  /** "Trust this browser for 30 days": the completed step lets this browser skip it for this account. */
  trust_browser: z.boolean().optional(),
});
export type SecondStepRequest = z.infer<typeof SecondStepRequestSchema>;

// POST /auth/passkey
export const PasskeyLoginRequestSchema = z.object({ response: PasskeyAuthenticationResponseSchema });

// POST /v2/user/reauth: a fresh proof for the session in hand
export const ReauthRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('password'), password: PasswordInputSchema }),
  z.object({ method: z.literal('totp'), code: sixDigits }),
  z.object({ method: z.literal('passkey'), response: PasskeyAuthenticationResponseSchema }),
]);
export type ReauthRequest = z.infer<typeof ReauthRequestSchema>;

// POST /v2/user/factor-revert: the token of a "this wasn't me" link
export const FactorRevertRequestSchema = z.object({ token: z.string().min(1).max(128) });
// Its answer: whether a password change was among what it undid (the password is then cleared: the page
// sends the holder to "Forgot your password?").
export const FactorRevertResponseSchema = z.object({ ok: z.literal(true), password_cleared: z.boolean() });
export type FactorRevertResponse = z.infer<typeof FactorRevertResponseSchema>;
