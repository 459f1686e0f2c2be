import '../zod-config.js';
import { z } from 'zod';
import { PolicyNoticeSchema } from '../admin.js';
import { CODE_LENGTH, LANGUAGES, MAX_TEAMMATES } from '../constants.js';
import { SESSION_METHODS } from '../sso-constants.js';
import {
  AcceptedTermsSchema,
  DisplayNameInputSchema,
  EmailSchema,
  IdSchema,
  PasswordInputSchema,
  ProfileSchema,
} from './common.js';

const loose = z.string().trim().max(320);
/** reCAPTCHA v3 token (spec §7): checked by the server only when a captcha site key is configured. */
const captchaToken = z.string().max(4096).optional();

// POST /v2/user
export const SignupRequestSchema = z.object({
  /** Checked by the service, so that a malformed address gets ERR_INVALID_EMAIL. */
  email: loose,
  invite_token: z.string().max(4096).optional(),
  language: z.enum(LANGUAGES).optional(),
  captcha_token: captchaToken,
});
export type SignupRequest = z.infer<typeof SignupRequestSchema>;
export const SignupResponseSchema = z.object({
  email: z.string(),
  message: z.string(),
  /** Present when a valid invite for this address was accepted: the account exists, confirmed; go to the welcome step. */
  token: z.string().optional(),
  profiles: z.array(ProfileSchema).optional(),
});

// PUT /v2/user/confirm and PUT /v2/user/forgot-password/confirm
export const ConfirmCodeRequestSchema = z.object({
  token: z.string().regex(new RegExp(`^\\d{${CODE_LENGTH}}$`)),
  email: EmailSchema,
  /** The UI language: an expired code is answered with a new one mailed in it. */
  language: z.enum(LANGUAGES).optional(),
  /** Action `code`: asked for only past the address's ceiling (ERR_CAPTCHA_REQUIRED, docs/security.md). */
  captcha_token: captchaToken,
});
export type ConfirmCodeRequest = z.infer<typeof ConfirmCodeRequestSchema>;

/** `{ token, profiles }`: a session token and the user's profiles (first = acting). */
export const SessionResponseSchema = z.object({
  token: z.string(),
  profiles: z.array(ProfileSchema),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

// PUT /v2/user/resend_confirmation and POST /v2/user/forgot-password
export const EmailOnlyRequestSchema = z.object({
  email: loose,
  language: z.enum(LANGUAGES).optional(),
  captcha_token: captchaToken,
});
export type EmailOnlyRequest = z.infer<typeof EmailOnlyRequestSchema>;
export const MessageResponseSchema = z.object({ message: z.string() });

// PUT /v2/user/complete-register (bearer)
export const CompleteRegisterRequestSchema = z.object({
  first_name: DisplayNameInputSchema,
  last_name: DisplayNameInputSchema,
  password: PasswordInputSchema,
  password_confirmation: PasswordInputSchema,
  accepted_terms: AcceptedTermsSchema,
});
export type CompleteRegisterRequest = z.infer<typeof CompleteRegisterRequestSchema>;

// PUT /user/:id (bearer)
export const UpdatePasswordRequestSchema = z.object({
  password: PasswordInputSchema,
  password_confirmation: PasswordInputSchema,
  /** Required with a normal session; not with the recovery token. */
  current_password: PasswordInputSchema.optional(),
  /**
   * With the recovery token of an account with two-step verification: an app or recovery code,
   * checked before anything changes.
   */
  code: z.string().trim().max(32).optional(),
});
export type UpdatePasswordRequest = z.infer<typeof UpdatePasswordRequestSchema>;
export const UserIdParamsSchema = z.object({ id: IdSchema });

// POST /auth/login
export const LoginRequestSchema = z.object({
  login: loose,
  password: PasswordInputSchema,
  captcha_token: captchaToken,
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

// GET /v2/user/me (bearer): who is signed in, for the signed-in home
export const MeResponseSchema = z.object({
  _id: z.string(),
  email: z.string(),
  confirmed: z.boolean(),
  registered: z.boolean(),
  profiles: z.array(ProfileSchema),
  /** The domain requires two-step verification and this person has none yet: the banner until the date. */
  policy_notice: PolicyNoticeSchema.optional(),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

// POST /invite/teammates (bearer)
export const InviteTeammatesRequestSchema = z.object({
  emails: z.array(z.string().trim().max(320)).max(MAX_TEAMMATES * 2),
  language: z.enum(LANGUAGES).optional(),
});
export type InviteTeammatesRequest = z.infer<typeof InviteTeammatesRequestSchema>;
export const InviteTeammatesResponseSchema = z.object({
  invited: z.array(z.string()),
  already_registered: z.array(z.string()),
});
export type InviteTeammatesResponse = z.infer<typeof InviteTeammatesResponseSchema>;

// GET /invite/url (bearer): the copyable invitation URL
/**
 * GET /invite/url (bearer): the inviter's team link, `url` and `expires_at` (ISO) null while the inviter
 * has turned it off; POST answers a new link (the earlier ones stop working), DELETE turns it off.
 */
export const InvitationUrlResponseSchema = z.object({ url: z.string().nullable(), expires_at: z.string().nullable() });
export type InvitationUrlResponse = z.infer<typeof InvitationUrlResponseSchema>;

// GET /invite/validate?inviteToken=
export const ValidateInviteQuerySchema = z.object({ inviteToken: z.string().max(4096) });
/**
 * GET /invite/validate (public, rate limited per client address): the invitee's address (personal
 * invites; '' for a team link) and the status. While pending (valid, unexpired, unused), and once an
 * address's invitation expired, also who invites (`inviter`: the inviting account's display name, never
 * an address; null for an administrator's invitation) and to which team (`team`: its domain). An expired
 * one also says whether the address is personal (`personal`: sign-up takes it only with an invitation).
 */
export const ValidateInviteResponseSchema = z.object({
  email: z.string(),
  status: z.enum(['pending', 'accepted', 'expired']),
  inviter: z.string().nullable().optional(),
  team: z.string().optional(),
  personal: z.boolean().optional(),
});
export type ValidateInviteResponse = z.infer<typeof ValidateInviteResponseSchema>;

// GET /v2/user/sessions (bearer): the active sessions (devices) of the signed-in user
export const ActiveSessionSchema = z.object({
  _id: z.string(),
  /** The User-Agent of its latest use; null before its first authenticated request. */
  device: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** How it was signed in ('sso': with the company's identity provider). */
  method: z.enum(SESSION_METHODS).optional(),
  /** The session making this request. */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof ActiveSessionSchema>;
export const ActiveSessionListSchema = z.object({ data: z.array(ActiveSessionSchema) });

// POST /sso/discover: does the address's domain sign in with single sign-on? (says nothing of the account)
export const SsoDiscoverRequestSchema = z.object({ email: z.string().max(320) });
export const SsoDiscoverResponseSchema = z.object({
  /** 'none': password only; 'available': both ways; 'required': single sign-on only. */
  sso: z.enum(['none', 'available', 'required']),
});
export type SsoDiscoverResponse = z.infer<typeof SsoDiscoverResponseSchema>;
// GET /sso/start?email=: 302 to the domain's provider
// GET /sso/start: by the address typed on our sign-in page, or by `domain` (the link an IT team puts on
// its portal: PUBLIC_URL/api/sso/start?domain=<domain>, any domain of a connection).
export const SsoStartQuerySchema = z.object({
  email: z.string().max(320).optional(),
  domain: z.string().max(253).optional(),
});
// POST /auth/handoff: the /auth page's single-use token for the session it stands for. `confirm`: the
// person answered "Continue as …?" (a hand-off that this browser did not start).
export const HandoffRequestSchema = z.object({ handoff: z.string().min(1).max(128), confirm: z.boolean().optional() });
// Its answer: the session, or (not started in this browser, not confirmed yet) the address to ask about,
// or, for a fresh proof at the provider, that the session which asked (in this browser) is proved now.
export const HandoffResponseSchema = z.union([
  SessionResponseSchema,
  z.object({ confirm_as: z.string() }),
  z.object({ proved: z.literal(true) }),
]);
export type HandoffResponse = z.infer<typeof HandoffResponseSchema>;
// POST /sso/reauth (bearer): where to send the browser for a fresh sign-in at the account's provider
export const SsoReauthResponseSchema = z.object({ url: z.string() });
export type SsoReauthResponse = z.infer<typeof SsoReauthResponseSchema>;
// PUT /sso/complete-register (bearer, a single-sign-on session): the terms of the welcome step
export const SsoCompleteRegisterRequestSchema = z.object({ accepted_terms: AcceptedTermsSchema });
