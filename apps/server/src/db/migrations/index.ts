import type { Migration } from 'kysely';
import * as core from './001-core.js';
import * as accounts from './002-accounts.js';
import * as meetings from './003-meetings.js';
import * as files from './004-files.js';
import * as outboxClaim from './005-outbox-claim.js';
import * as fileReservations from './006-file-reservations.js';
import * as sessions from './007-sessions.js';
import * as sso from './008-sso.js';
import * as passkeysTotp from './009-passkeys-totp.js';
import * as teamLinks from './010-team-links.js';
import * as identityCore from './011-identity-core.js';
import * as ssoIdentities from './012-sso-identities.js';
import * as deviceTrust from './013-device-trust.js';
import * as meetingLobby from './014-meeting-lobby.js';
import * as ssoMapping from './015-sso-mapping.js';
import * as ssoLogout from './016-sso-logout.js';
import * as domainAdmins from './017-domain-admins.js';
import * as accessRequestLimits from './018-access-request-limits.js';
import * as trustedBrowsers from './019-trusted-browsers.js';

/** Ordered migrations; names sort in the order they must run. Append, never edit an applied one. */
export const migrations: Record<string, Migration> = {
  '001-core': core,
  '002-accounts': accounts,
  '003-meetings': meetings,
  '004-files': files,
  '005-outbox-claim': outboxClaim,
  '006-file-reservations': fileReservations,
  '007-sessions': sessions,
  '008-sso': sso,
  '009-passkeys-totp': passkeysTotp,
  '010-team-links': teamLinks,
  '011-identity-core': identityCore,
  '012-sso-identities': ssoIdentities,
  '013-device-trust': deviceTrust,
  '014-meeting-lobby': meetingLobby,
  '015-sso-mapping': ssoMapping,
  '016-sso-logout': ssoLogout,
  '017-domain-admins': domainAdmins,
  '018-access-request-limits': accessRequestLimits,
  '019-trusted-browsers': trustedBrowsers,
};
