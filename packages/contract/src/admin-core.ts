/**
 * The zod-free part of the admin console's contract: constants, web and API paths, error catalogue
 * entries. paths.ts and errors.ts (the contract's core, in every screen's first load) read these; the
 * schemas, which need zod, stay in admin.ts.
 */

// ---------------------------------------------------------------------------------------------------
// Constants

/** People and audit events per page (keyset paged: `cursor` is opaque, from the previous answer). */
export const ADMIN_PAGE_SIZE = 50;
export const ADMIN_PAGE_SIZE_MAX = 200;
/** Audit events are kept this long, then purged by a daily job. */
export const AUDIT_RETENTION_DAYS = 400;
/** Addresses one pasted invitation list may hold (one per line, or separated by commas/semicolons/spaces). */
export const ADMIN_INVITE_MAX = 200;
/** Characters of the pasted list (bounded before it is split). */
export const ADMIN_INVITE_TEXT_MAX = 20_000;
/** Search text of the People page. */
export const ADMIN_SEARCH_MAX = 100;
/** The DNS name that proves a domain: `_suite-challenge.<domain>`, a TXT record holding the shown value. */
export const ADMIN_CHALLENGE_PREFIX = '_suite-challenge';
/**
 * A proven domain's record is checked again every day; when it is gone, the domain's administrators are
 * mailed and the claims proven by it are dropped after this grace (when the record is still missing).
 */
export const ADMIN_CLAIM_RECHECK_MS = 24 * 60 * 60 * 1000;
export const ADMIN_CLAIM_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Access requests: at most this many stored per address in the window (same answer beyond). Every stored
 * request waits in the console; the administrators get a mail per request for at most this many of a
 * domain's requests in the window, then one digest (strangers cannot crowd a colleague out of the console).
 */
export const ACCESS_REQUEST_PER_ADDRESS = 3;
export const ACCESS_REQUEST_MAILS_PER_DOMAIN = 30;
export const ACCESS_REQUEST_WINDOW_MS = 24 * 60 * 60 * 1000;
/** An approval admits one sign-up of its address, within this long after the decision. */
export const ACCESS_APPROVAL_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The approve/refuse link in the administrators' mail works once, for this long. */
export const ACCESS_REQUEST_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const ACCESS_REQUEST_MESSAGE_MAX = 500;
/** Security policy bounds: maximum session lifetime 1 hour to 30 days, idle timeout 15 minutes to 30 days. */
export const SESSION_LIFETIME_MIN_MS = 60 * 60 * 1000;
export const SESSION_LIFETIME_MAX_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MIN_MS = 15 * 60 * 1000;
export const SESSION_IDLE_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** How long people without a second factor may still sign in with a password alone after "require two-step". */
export const TWO_STEP_GRACE_MAX_DAYS = 30;

/**
 * Web addresses the server writes into mails (the console's pages are admin-web's): the approve/refuse
 * link is `${PUBLIC_URL}${ADMIN_WEB_PATHS.decide}#token=<token>` (a fragment: never sent to a server,
 * never in a log); the page shows the request (POST access-requests/link) and then decides it.
 */
export const ADMIN_WEB_PATHS = {
  console: '/app/admin',
  decide: '/app/admin/decide',
  /**
   * Where the Test sign-in's popup lands after the provider: the console's page, whose fragment tells
   * it to signal the console that opened it and close itself (the opener cannot: our
   * Cross-Origin-Opener-Policy cuts the popup off once it visits the provider).
   */
  ssoTestDone: '/app/admin/single-sign-on#sso-test-done',
} as const;

// ---------------------------------------------------------------------------------------------------
// API paths (mounted under API_PREFIX; merged into API in paths.ts)

export const ADMIN_API = {
  /** The domains the caller administers (404: none). The web shows /app/admin only on a 200. */
  adminMe: '/admin/me',
  /** Claim by DNS (any signed-in, registered person of a company domain): the record to publish, then the check. */
  adminClaim: '/admin/claim',
  adminClaimVerify: '/admin/claim/verify',
  /** Administrators of a domain: list, add (by address, a person of the domain), remove. */
  adminAdmins: '/admin/domains/:domain/admins',
  adminAdmin: '/admin/domains/:domain/admins/:userId',
  /** People: list/search (GET, keyset paged); one person; actions on one person. */
  adminPeople: '/admin/domains/:domain/people',
  adminPerson: '/admin/people/:id',
  adminPersonDeactivate: '/admin/people/:id/deactivate',
  adminPersonReactivate: '/admin/people/:id/reactivate',
  adminPersonEndSessions: '/admin/people/:id/end-sessions',
  adminPersonResetTwoStep: '/admin/people/:id/reset-two-step',
  adminPersonRemovePasskeys: '/admin/people/:id/remove-passkeys',
  adminPersonResendInvitation: '/admin/people/:id/resend-invitation',
  /** Invite a pasted list of addresses of the domain. */
  adminInvitations: '/admin/domains/:domain/invitations',
  /** Sign-up rules (GET, PUT). */
  adminSignupRules: '/admin/domains/:domain/signup-rules',
  /** Security policy (GET, PUT). */
  adminSecurityPolicy: '/admin/domains/:domain/security-policy',
  /** Access requests of a domain (GET, keyset paged) and a decision on one. */
  adminRequests: '/admin/domains/:domain/requests',
  adminRequestApprove: '/admin/requests/:id/approve',
  adminRequestRefuse: '/admin/requests/:id/refuse',
  /** Single sign-on of a domain as the console shows it: the connection, its recent failures, our addresses. */
  adminSso: '/admin/domains/:domain/sso',
  /**
   * Test sign-in (POST: the provider's address to open in a popup, fresh proof needed; GET: this
   * administrator's last result). The provider's return is recognised by the stored request: it shows
   * what was received and each check's verdict, and creates no account and no session.
   */
  adminSsoTest: '/admin/domains/:domain/sso/test',
  /** Audit trail (GET, keyset paged) and its CSV export (GET, text/csv, streamed; same filters). */
  adminAudit: '/admin/domains/:domain/audit',
  adminAuditExport: '/admin/domains/:domain/audit/export',
  /** Public: "Ask for access" from a "contact your domain administrator" screen. Always 202 { ok: true }. */
  accessRequests: '/access-requests',
  /** Public, with the mail link's token: what the request is (does not use the token up). */
  accessRequestLink: '/access-requests/link',
  /** Public, with the mail link's token: approve or refuse (uses the token up). */
  accessRequestDecide: '/access-requests/decide',
  /**
   * A password sign-in of a domain that requires two-step verification, by a person without a second
   * factor: POST /auth/login answers TwoStepEnrolmentRequired; the pending token then gets the app's
   * secret (setup) and, with the app's first code, the session and the recovery codes.
   */
  loginEnrolSetup: '/auth/login/enrol/setup',
  loginEnrol: '/auth/login/enrol',
} as const;

// ---------------------------------------------------------------------------------------------------
// Errors (merged into ERRORS in errors.ts; web texts errors.<CODE>)

const entry = (status: number, message: string) => ({ status, message });

export const ADMIN_ERRORS = {
  ERR_ADMIN_LAST: entry(409, 'You are the last administrator of this domain. Add another one before leaving.'),
  ERR_ADMIN_ALREADY: entry(409, 'This person is already an administrator of this domain.'),
  ERR_ADMIN_NOT_IN_DOMAIN: entry(
    400,
    'Only a registered person with an address of this domain can be an administrator.',
  ),
  ERR_CLAIM_NOT_ALLOWED: entry(403, 'Only people with a company address of this domain can prove it.'),
  ERR_CLAIM_RECORD_MISSING: entry(
    400,
    'No TXT record was found at the name shown. DNS changes can take a while; try again later.',
  ),
  ERR_CLAIM_RECORD_MISMATCH: entry(400, 'The TXT record was found, but it does not hold the value shown.'),
  ERR_DNS_UNAVAILABLE: entry(503, 'The DNS servers could not be reached. Please try again in a moment.'),
  ERR_SSO_ONLY_NOT_ALLOWED: entry(
    409,
    'Single sign-on only can be turned on once a connection exists and you signed in through it.',
  ),
  ERR_PERSON_NOT_INVITED: entry(409, 'This person has no pending invitation.'),
  ERR_INVITE_LIST_TOO_LONG: entry(400, 'Paste at most 200 addresses at once.'),
  ERR_REQUEST_ALREADY_DECIDED: entry(409, 'This request was already approved or refused.'),
  ERR_REQUEST_LINK_INVALID: entry(
    400,
    'This link has expired or was already used. Open the console to see the request.',
  ),
  ERR_SIGNUP_INVITE_ONLY: entry(
    403,
    'New accounts of this domain are by invitation only. Ask your domain administrator for an invitation.',
  ),
  ERR_SIGNUP_APPROVAL_PENDING: entry(
    403,
    'New accounts of this domain need an administrator’s approval. We asked them; you will get an e-mail when they decide.',
  ),
  ERR_SSO_DOMAIN_NOT_PROVEN: entry(
    403,
    'Prove this domain with its DNS record before setting up single sign-on from the console.',
  ),
  ERR_SSO_SETUP_INVALID: entry(400, 'These provider settings could not be used. Check them and try again.'),
  ERR_SSO_PROVIDER_TAKEN: entry(
    409,
    'This identity provider is already the connection of another domain. Ask the service’s operator to add your domain to that connection.',
  ),
  ERR_SSO_SETUP_SSO_ONLY: entry(
    409,
    'This domain signs in with single sign-on only: a new connection would be off until tested, locking everyone out. Turn “single sign-on only” off under Sign-up rules first.',
  ),
  ERR_SSO_NO_CONNECTION: entry(409, 'This domain has no single sign-on connection to test yet.'),
  ERR_SSO_PROVIDER_UNAVAILABLE: entry(
    503,
    'Your identity provider could not be reached. Check its address and try again in a moment.',
  ),
  ERR_TWO_STEP_ENROLMENT_REQUIRED: entry(
    403,
    'Your organization requires two-step verification. Set it up to continue.',
  ),
} as const;
