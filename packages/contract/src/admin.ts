import './zod-config.js';
import { z } from 'zod';
import { LANGUAGES } from './constants.js';
import { EmailSchema, IdSchema, ProfileSchema } from './schemas/common.js';
import {
  ADMIN_PAGE_SIZE_MAX,
  ADMIN_INVITE_TEXT_MAX,
  ADMIN_SEARCH_MAX,
  ACCESS_REQUEST_MESSAGE_MAX,
  SESSION_LIFETIME_MIN_MS,
  SESSION_LIFETIME_MAX_MS,
  SESSION_IDLE_MIN_MS,
  SESSION_IDLE_MAX_MS,
  TWO_STEP_GRACE_MAX_DAYS,
} from './admin-core.js';

/**
 * The domain administrator's console: who administers a domain, its people, sign-up rules, access
 * requests, security policy and audit trail. Every `/admin/...` path answers 404 to a caller who does
 * not administer the domain in the path (or the domain of the person / request id in the path), so the
 * console's existence reveals nothing; the two claim paths are the exception (any signed-in person may
 * prove their own domain). Actions (not reads) need a proof within PROOF_FRESH_MS, else 403
 * ERR_PROOF_REQUIRED, the code the Security panel answers (the web then offers POST /v2/user/reauth).
 */

export * from './admin-core.js';

// ---------------------------------------------------------------------------------------------------
// Schemas

/** A domain in a path: lower-case host name. */
export const DomainParamSchema = z.object({
  domain: z
    .string()
    .min(1)
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$/)
    .transform((d) => d.toLowerCase().replace(/\.$/, '')),
});
export const AdminIdParamsSchema = z.object({ id: IdSchema });
export const AdminAdminParamsSchema = DomainParamSchema.extend({ userId: IdSchema });

const cursor = z.string().max(512).optional();
const limit = z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).optional();
const iso = z.string();

/** GET /admin/me */
export const AdminMeResponseSchema = z.object({
  domains: z.array(
    z.object({
      domain: z.string(),
      /** By whom it was granted: the operator, another administrator, or a DNS proof. */
      via: z.enum(['operator', 'admin', 'dns']),
    }),
  ),
});
export type AdminMeResponse = z.infer<typeof AdminMeResponseSchema>;

/** GET /admin/claim: the record to publish for the caller's own domain (derived per domain and person). */
export const AdminClaimResponseSchema = z.object({
  domain: z.string(),
  record_name: z.string(),
  record_type: z.literal('TXT'),
  record_value: z.string(),
  /** The caller already administers it. */
  admin: z.boolean(),
});
export type AdminClaimResponse = z.infer<typeof AdminClaimResponseSchema>;
/** POST /admin/claim/verify: answers AdminMeResponse on success (the caller is now an administrator). */
export const AdminClaimVerifyRequestSchema = z.object({}).strict();

/** GET/POST /admin/domains/:domain/admins */
export const AdminSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  via: z.enum(['operator', 'admin', 'dns']),
  created_at: iso,
  /** A DNS claim whose record vanished: when it will be dropped (null otherwise). */
  drops_at: iso.nullable(),
});
export type Admin = z.infer<typeof AdminSchema>;
export const AdminListResponseSchema = z.object({ admins: z.array(AdminSchema) });
export type AdminListResponse = z.infer<typeof AdminListResponseSchema>;
export const AddAdminRequestSchema = z.object({ email: EmailSchema });

/** People */
export const PERSON_STATUSES = ['active', 'deactivated', 'invited', 'waiting'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];
export const SIGN_IN_METHODS = ['password', 'passkey', 'two_step', 'sso'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const PeopleQuerySchema = z.object({
  /** Part of a name or an address (case-insensitive). */
  q: z.string().trim().max(ADMIN_SEARCH_MAX).optional(),
  status: z.enum(PERSON_STATUSES).optional(),
  cursor,
  limit,
});
export type PeopleQuery = z.infer<typeof PeopleQuerySchema>;

export const PersonSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status: z.enum(PERSON_STATUSES),
  methods: z.array(z.enum(SIGN_IN_METHODS)),
  /** Sessions not ended and not expired. */
  sessions: z.number().int(),
  last_sign_in_at: iso.nullable(),
  created_at: iso,
  admin: z.boolean(),
});
export type Person = z.infer<typeof PersonSchema>;
export const PeoplePageSchema = z.object({
  people: z.array(PersonSchema),
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type PeoplePage = z.infer<typeof PeoplePageSchema>;
/** Answer of GET /admin/people/:id and of every action on a person: the person afterwards. */
export const PersonResponseSchema = z.object({ person: PersonSchema });
export type PersonResponse = z.infer<typeof PersonResponseSchema>;
/** Body of the person actions (language of the mail to the person, else theirs). */
export const PersonActionRequestSchema = z.object({ language: z.enum(LANGUAGES).optional() }).strict();

/** POST /admin/domains/:domain/invitations */
export const AdminInviteRequestSchema = z.object({
  /** Pasted text: addresses separated by new lines, commas, semicolons or spaces ("Name <a@b>" is read too). */
  text: z.string().max(ADMIN_INVITE_TEXT_MAX),
  language: z.enum(LANGUAGES).optional(),
});
export const AdminInviteResponseSchema = z.object({
  invited: z.array(z.string()),
  /** Addresses skipped, each with why. */
  skipped: z.array(
    z.object({
      email: z.string(),
      reason: z.enum(['invalid', 'other_domain', 'already_registered', 'duplicate']),
    }),
  ),
});
export type AdminInviteResponse = z.infer<typeof AdminInviteResponseSchema>;

/** Sign-up rules */
export const SIGNUP_MODES = ['open', 'invite', 'approval'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];
export const SignupRulesSchema = z.object({
  mode: z.enum(SIGNUP_MODES),
  sso_only: z.boolean(),
  /** Whether sso_only may be turned on now (a connection exists and the caller's session came through it). */
  sso_only_available: z.boolean(),
  sso_connection: z.boolean(),
  /** Free plan: people counted against the limit, and the limit (null: none). */
  seats: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
});
export type SignupRules = z.infer<typeof SignupRulesSchema>;
export const UpdateSignupRulesRequestSchema = z
  .object({ mode: z.enum(SIGNUP_MODES).optional(), sso_only: z.boolean().optional() })
  .strict();

/** Security policy */
export const SecurityPolicySchema = z.object({
  /** Password sign-ins need a second factor; people without one enrol right after the password. */
  require_two_step: z.boolean(),
  /** Days after turning it on during which people without a factor may still skip enrolment (banner shown). */
  two_step_grace_days: z.number().int().min(0).max(TWO_STEP_GRACE_MAX_DAYS),
  /** When the grace ends (ISO), null when no grace is running. */
  two_step_grace_until: iso.nullable(),
  /** Maximum session lifetime in ms (null: the server's default). */
  session_max_ms: z.number().int().min(SESSION_LIFETIME_MIN_MS).max(SESSION_LIFETIME_MAX_MS).nullable(),
  /** Idle timeout in ms (null: the server's default). */
  session_idle_ms: z.number().int().min(SESSION_IDLE_MIN_MS).max(SESSION_IDLE_MAX_MS).nullable(),
  /**
   * Whether a completed two-step sign-in may offer "Trust this browser" (skipping the second step on that
   * browser for TRUSTED_BROWSER_TTL_MS). Off: not offered, not earned, existing trust not honoured.
   */
  trust_browsers: z.boolean(),
});
export type SecurityPolicy = z.infer<typeof SecurityPolicySchema>;
export const UpdateSecurityPolicyRequestSchema = SecurityPolicySchema.omit({ two_step_grace_until: true })
  .partial()
  .strict();

/**
 * The session answer's policy notice (GET /v2/user/me gains `policy_notice`, optional): a person of a
 * domain that requires two-step verification and has no second factor, during the grace.
 */
export const PolicyNoticeSchema = z.object({ two_step_required_by: iso });
export type PolicyNotice = z.infer<typeof PolicyNoticeSchema>;
/** POST /auth/login's answer when the domain requires two-step and the person has none (no session yet). */
export const TwoStepEnrolmentRequiredSchema = z.object({
  enrol: z.literal('totp'),
  /** Short-lived, single-use: exchanged for the enrolment steps, then for a session. */
  pending_token: z.string(),
});
export type TwoStepEnrolmentRequired = z.infer<typeof TwoStepEnrolmentRequiredSchema>;
/** POST /auth/login/enrol/setup: answers the app's secret (TotpSetupResponse of the Security panel). */
export const EnrolSetupRequestSchema = z.object({ email: EmailSchema, pending_token: z.string().max(512) });
/** POST /auth/login/enrol: the app's first code ends the sign-in. */
export const EnrolRequestSchema = EnrolSetupRequestSchema.extend({
  code: z.string().regex(/^\d{6}$/),
  language: z.enum(LANGUAGES).optional(),
});
export const EnrolResponseSchema = z.object({
  token: z.string(),
  profiles: z.array(ProfileSchema),
  recovery_codes: z.array(z.string()),
});
export type EnrolResponse = z.infer<typeof EnrolResponseSchema>;

/** Access requests */
/**
 * Why the person asks: the screen they asked from. 'approval' requests are also made by the server itself
 * when someone signs up for a domain whose sign-up needs approval (answer ERR_SIGNUP_APPROVAL_PENDING).
 */
export const ACCESS_REQUEST_REASONS = ['domain_inactive', 'sso_unavailable', 'invite_only', 'approval'] as const;
export type AccessRequestReason = (typeof ACCESS_REQUEST_REASONS)[number];
export const ACCESS_REQUEST_STATUSES = ['pending', 'approved', 'refused'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

/** POST /access-requests (public; 202 { ok: true } whatever the domain). */
export const AccessRequestCreateSchema = z.object({
  email: EmailSchema,
  reason: z.enum(ACCESS_REQUEST_REASONS),
  message: z.string().trim().max(ACCESS_REQUEST_MESSAGE_MAX).optional(),
  language: z.enum(LANGUAGES).optional(),
  captcha_token: z.string().max(4096).optional(),
});
export type AccessRequestCreate = z.infer<typeof AccessRequestCreateSchema>;

export const AccessRequestSchema = z.object({
  id: z.string(),
  email: z.string(),
  domain: z.string(),
  reason: z.enum(ACCESS_REQUEST_REASONS),
  message: z.string().nullable(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  created_at: iso,
  decided_at: iso.nullable(),
  decided_by: z.string().nullable(),
});
export type AccessRequest = z.infer<typeof AccessRequestSchema>;
export const AccessRequestsQuerySchema = z.object({
  status: z.enum(ACCESS_REQUEST_STATUSES).optional(),
  cursor,
  limit,
});
export const AccessRequestsPageSchema = z.object({
  requests: z.array(AccessRequestSchema),
  next_cursor: z.string().nullable(),
});
export type AccessRequestsPage = z.infer<typeof AccessRequestsPageSchema>;
export const AccessRequestResponseSchema = z.object({ request: AccessRequestSchema });
export type AccessRequestResponse = z.infer<typeof AccessRequestResponseSchema>;
/** POST /admin/requests/:id/approve|refuse */
export const DecideRequestSchema = z.object({ language: z.enum(LANGUAGES).optional() }).strict();
/** POST /access-requests/link: what the link is about (answers AccessRequestResponse). */
export const AccessRequestLinkSchema = z.object({ token: z.string().min(1).max(128) });
/** POST /access-requests/decide: answers AccessRequestResponse. */
export const AccessRequestDecideSchema = z.object({
  token: z.string().min(1).max(128),
  decision: z.enum(['approve', 'refuse']),
});

/** Audit trail */
export const AUDIT_KINDS = [
  'sign_in',
  'sign_in_failed',
  'sso_failed',
  'code_mailed',
  'factor_changed',
  'session_ended',
  'admin_action',
  'policy_changed',
  'access_request',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AuditQuerySchema = z.object({
  /** A person's address (exact) or id: events they did or that were done to them. */
  person: z.string().trim().max(254).optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  /** ISO instants, inclusive from, exclusive to. */
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  cursor,
  limit,
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditEventSchema = z.object({
  id: z.string(),
  at: iso,
  kind: z.enum(AUDIT_KINDS),
  /** What exactly: 'password', 'deactivate', 'require_two_step', …; a failure's reason is in `reason`. */
  action: z.string(),
  actor_email: z.string().nullable(),
  target_email: z.string().nullable(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;
export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  next_cursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
/** Columns of the CSV export, in order (header row first). */
export const AUDIT_CSV_COLUMNS = [
  'at',
  'kind',
  'action',
  'actor_email',
  'target_email',
  'reason',
  'ip',
  'details',
] as const;

/** Single sign-on page of the console */
/** The SSO failures the page lists, newest first (from the audit trail, kind sso_failed). */
export const ADMIN_SSO_FAILURES_MAX = 50;

export const AdminSsoCertificateSchema = z.object({
  /** SHA-256 of the certificate, hex. */
  fingerprint: z.string(),
  /** When it ends (null: unreadable). */
  expires_at: iso.nullable(),
  /** ended, or ends within SSO_CERTIFICATE_WARN_DAYS; null otherwise. */
  warning: z.enum(['expired', 'expiring']).nullable(),
});
export type AdminSsoCertificate = z.infer<typeof AdminSsoCertificateSchema>;

export const AdminSsoConnectionSchema = z.object({
  protocol: z.enum(['oidc', 'saml']),
  /** Every e-mail domain the connection serves, its first one first. */
  domains: z.array(z.string()),
  /** OIDC: the issuer and client id (never the secret); null for SAML. */
  issuer: z.string().nullable(),
  client_id: z.string().nullable(),
  /** SAML: the IdP's entity ID, sign-on URL and metadata URL (null: from a file); null for OIDC. */
  entity_id: z.string().nullable(),
  sso_url: z.string().nullable(),
  metadata_url: z.string().nullable(),
  metadata_read_at: iso.nullable(),
  /** SAML signing certificates with their ends (empty for OIDC: its keys rotate through its JWKS). */
  certificates: z.array(AdminSsoCertificateSchema),
  /**
   * SAML: SHA-1 signatures refused, accepted (set so), or accepted with a daily warning (a connection
   * made before they were refused); null for OIDC.
   */
  sha1: z.enum(['refuse', 'allow', 'warn']).nullable(),
  /** SAML: the IdP's single logout service, null when its metadata has none (sign-out ends only ours). */
  logout_url: z.string().nullable(),
  /** SAML: responses started at the IdP (its app tile) are taken, after "Continue as …?". */
  idp_initiated: z.boolean(),
  /** Set up from the console and not yet switched on: waits for a passed Test sign-in. */
  awaiting_test: z.boolean(),
  updated_at: iso,
});
export type AdminSsoConnection = z.infer<typeof AdminSsoConnectionSchema>;

export const AdminSsoFailureSchema = z.object({
  at: iso,
  /** Where it failed: 'oidc' or 'saml' (the provider's return), 'start' (on the way to the provider). */
  step: z.string(),
  /** SSO_ERROR_REASONS: what the person was told. */
  reason: z.string(),
  /** The address the provider sent, when it got that far. */
  email: z.string().nullable(),
  /** What went wrong, in the operator's words (never a token or an assertion). */
  detail: z.string(),
  ip: z.string().nullable(),
});
export type AdminSsoFailure = z.infer<typeof AdminSsoFailureSchema>;

/** GET /admin/domains/:domain/sso */
export const AdminSsoResponseSchema = z.object({
  domain: z.string(),
  /** An administrator proved the domain by DNS (setting a connection up from the console needs it). */
  proven: z.boolean(),
  sso_only: z.boolean(),
  connection: AdminSsoConnectionSchema.nullable(),
  failures: z.array(AdminSsoFailureSchema),
  /** Our addresses to paste into the provider. */
  ours: z.object({
    saml_entity_id: z.string(),
    saml_metadata_url: z.string(),
    saml_acs_url: z.string(),
    saml_slo_url: z.string(),
    /** The connection's own redirect and back-channel logout URIs (they name it: null before it exists). */
    oidc_redirect_uri: z.string().nullable(),
    oidc_backchannel_logout_uri: z.string().nullable(),
    oidc_post_logout_redirect_uri: z.string(),
    /** The link for the company's portal or app tile. */
    start_url: z.string(),
  }),
});
export type AdminSsoResponse = z.infer<typeof AdminSsoResponseSchema>;

/** POST /admin/domains/:domain/sso/test */
export const SsoTestStartResponseSchema = z.object({
  /** The provider's sign-in address, to open in a popup (the browser-binding cookie is set with it). */
  url: z.string(),
});
export type SsoTestStartResponse = z.infer<typeof SsoTestStartResponseSchema>;

/** The checks a Test sign-in reports, in order; a check that could not run is left out. */
export const SSO_TEST_CHECKS = ['answer', 'address', 'domain_active', 'account'] as const;
export type SsoTestCheck = (typeof SSO_TEST_CHECKS)[number];
export const SsoTestResultSchema = z.object({
  at: iso,
  protocol: z.enum(['oidc', 'saml']),
  /** Every check passed: a real sign-in by this person would be let in. */
  passed: z.boolean(),
  /** The address the provider sent (null: none, or its answer was refused before it was read). */
  email: z.string().nullable(),
  /** Claim or attribute names received (never values), as the log of a refusal tells them. */
  received: z.string(),
  checks: z.array(
    z.object({
      check: z.enum(SSO_TEST_CHECKS),
      ok: z.boolean(),
      /** SSO_ERROR_REASONS of a failed check (what a person would be told). */
      reason: z.string().nullable(),
      /** Why, in the operator's words; for `account`: 'existing' or 'new'. */
      detail: z.string(),
    }),
  ),
});
export type SsoTestResult = z.infer<typeof SsoTestResultSchema>;
/** GET /admin/domains/:domain/sso/test: this administrator's last Test sign-in of the domain (kept a day). */
export const SsoTestResultResponseSchema = z.object({ result: SsoTestResultSchema.nullable() });
export type SsoTestResultResponse = z.infer<typeof SsoTestResultResponseSchema>;

/**
 * PUT /admin/domains/:domain/sso: set the connection up from the console (a proven domain only; fresh
 * proof). It starts switched off: only a passed Test sign-in switches it on. Answers AdminSsoResponse.
 */
export const SSO_SETUP_TEXT_MAX = 512 * 1024;
export const AdminSsoSetupRequestSchema = z.discriminatedUnion('protocol', [
  z
    .object({
      protocol: z.literal('oidc'),
      /** The provider's https issuer URL, exactly as it publishes it. */
      issuer: z
        .string()
        .trim()
        .max(2048)
        .regex(/^https:\/\/\S+$/),
      client_id: z.string().trim().min(1).max(512),
      client_secret: z.string().min(1).max(4096),
    })
    .strict(),
  z
    .object({
      protocol: z.literal('saml'),
      /** The IdP's metadata: its https URL (read again daily), or the file's text. */
      metadata_url: z
        .string()
        .trim()
        .max(2048)
        .regex(/^https:\/\/\S+$/)
        .optional(),
      metadata_xml: z.string().max(SSO_SETUP_TEXT_MAX).optional(),
    })
    .strict()
    .refine((v) => Boolean(v.metadata_url) !== Boolean(v.metadata_xml), {
      message: 'Give the metadata URL or the metadata file, one of them.',
    }),
]);
export type AdminSsoSetupRequest = z.infer<typeof AdminSsoSetupRequestSchema>;
