/** The admin console's error catalogue entries, merged into ERRORS by errors.ts (re-exported by admin-core.ts). */

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
    'This link has expired or was already used. Open Administration to see the request.',
  ),
  ERR_SIGNUP_INVITE_ONLY: entry(
    403,
    'New accounts in this domain are by invitation only. Ask your domain administrator for an invitation.',
  ),
  ERR_SIGNUP_APPROVAL_PENDING: entry(
    403,
    'New accounts in this domain need an administrator’s approval. We asked them; you will get an email when they decide.',
  ),
  ERR_SSO_DOMAIN_NOT_PROVEN: entry(
    403,
    'Prove this domain with its DNS record before setting up single sign-on in Administration.',
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
