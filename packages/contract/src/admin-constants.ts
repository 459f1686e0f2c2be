/** The admin console's constants and web paths (zod-free; re-exported by admin-core.ts). */

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
  /** Where the Test sign-in's popup lands after the provider (the console reads the result). */
  ssoTestDone: '/app/admin/single-sign-on#sso-test-done',
} as const;
