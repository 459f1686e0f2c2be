/**
 * The admin console's API paths (re-exported by admin-core.ts and core.ts). A table of their own, not
 * spread into API: every screen's first load reads API, and only the console reads these.
 */

// ---------------------------------------------------------------------------------------------------
// API paths (mounted under API_PREFIX)

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
} as const;
