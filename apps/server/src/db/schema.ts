import type { Generated } from 'kysely';

/** Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite). Booleans are 0/1. */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  language: string;
  preferences: string;
  active: Generated<number>;
  confirmed_at: number | null;
  registered_at: number | null;
  /** Sessions issued before this instant are no longer accepted (password change, sign-out). */
  sessions_valid_after: Generated<number>;
  /** Moves when every other session is ended: trusted-device entries of an older one are void. */
  credential_generation: Generated<number>;
  invited_by: string | null;
  created_at: number;
  /** Lower-cased e-mail domain (free-plan counts). */
  domain: Generated<string>;
  accepted_terms_version: number | null;
  accepted_terms_at: number | null;
}

export interface ProfilesTable {
  id: string;
  user_id: string;
  type: 'PROFESSIONAL' | 'PERSONAL';
  first_name: string;
  last_name: string;
  created_at: number;
}

export interface DomainsTable {
  name: string;
  active: Generated<number>;
  mail_server_hosted: Generated<number>;
  sso_only: Generated<number>;
  /** null: no limit. */
  free_plan_limit: number | null;
  updated_at: number;
}

export interface CodesTable {
  email: string;
  purpose: 'confirm' | 'recovery';
  /** HMAC-SHA-256 of purpose, address and code; the code itself is never stored. */
  code_hash: string;
  attempts: Generated<number>;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
  sends: Generated<number>;
  sends_window_started_at: Generated<number>;
}

export interface MailOutboxTable {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  locked_until: Generated<number>;
  /** Who holds the claim until locked_until (null: nobody). */
  claim_token: string | null;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
  created_at: number;
}

export interface InvitesTable {
  /** SHA-256 of the invite JWT's jti. */
  jti_hash: string;
  email: string;
  inviter_id: string | null;
  expires_at: number;
  accepted_at: number | null;
  created_at: number;
}

export interface VideoconferencesTable {
  /** The Jitsi room name. */
  id: string;
  host_id: string;
  title: string;
  created_at: number;
  ended_at: number | null;
  /** Who goes straight in: 'open', 'organisation' or 'restricted' (MeetingAccess). */
  access: string;
}

/** Co-hosts a host named: they admit people and change the access level. */
export interface MeetingCohostsTable {
  videoconference_id: string;
  user_id: string;
  created_at: number;
}

/** An address the host invited; its personal link (token_hash: SHA-256 of the token) passes the lobby. */
export interface MeetingInviteesTable {
  id: string;
  videoconference_id: string;
  email: string;
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
  joined_at: number | null;
}

/** A request to join a meeting, one per meeting and browser (browser_hash: SHA-256 of its lobby cookie). */
export interface MeetingLobbyRequestsTable {
  id: string;
  videoconference_id: string;
  browser_hash: string;
  kind: 'user' | 'guest';
  /** The user id or the guest id. */
  subject: string;
  name: string;
  /** The domain of a signed-in person's address; '' for a guest. */
  domain: string;
  status: 'waiting' | 'admitted' | 'denied' | 'cancelled' | 'expired';
  denials: number;
  /** The meeting session an admission was given in: it lets the person in during that session only. */
  session_id: string | null;
  created_at: number;
  last_seen_at: number;
  decided_at: number | null;
}

export interface GuestsTable {
  id: string;
  name: string;
  terms_version: number;
  created_at: number;
}

export interface MeetingSessionsTable {
  id: string;
  videoconference_id: string;
  started_at: number;
  last_activity_at: number;
  ended_at: number | null;
  end_reason: 'host' | 'idle' | 'closed' | null;
}

export interface FilesTable {
  id: string;
  owner_id: string;
  /** Display name as uploaded (path parts and control characters removed); never used on disk. */
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  /** Generated id of the bytes in storage. */
  storage_key: string;
  created_at: number;
}

export interface FileSharesTable {
  id: string;
  file_id: string;
  /** SHA-256 (hex) of the share_key; the key itself is shown once and never stored. */
  key_hash: string;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

/** Bytes an upload in progress holds against its owner's quota (released when it ends). */
export interface FileReservationsTable {
  id: string;
  user_id: string;
  bytes: number;
  expires_at: number;
}

/** One issued session (a device); the token's session id is stored only as its SHA-256. */
export interface SessionsTable {
  id: string;
  sid_hash: string;
  user_id: string;
  /** 'session': full; 'welcome': the welcome step only (registration not finished); 'recovery': the password. */
  kind: 'session' | 'welcome' | 'recovery';
  /** How it was signed in: 'password', 'sso', … (the sessions panel says it). */
  method: Generated<string>;
  /** The User-Agent of the session's latest use (its device, as the sessions list shows it). */
  user_agent: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The methods the session was proved with, comma-separated (`amr`: 'pwd', 'otp', 'hwk', …). */
  amr: Generated<string>;
  /** The authenticator assurance level the sign-in reached: 1 or 2. */
  aal: Generated<number>;
  /** When the holder last proved who they are (epoch ms): what a sensitive change checks. */
  proved_at: number | null;
}

/** Our SAML service provider's key pairs (decryption and signing); one current, the others retired. */
export interface SsoSpKeysTable {
  id: string;
  /** PKCS#8 PEM, sealed with the SSO key ring. */
  private_key: string;
  /** The self-signed certificate, base64 DER (what the SP metadata publishes). */
  certificate: string;
  created_at: number;
  retired_at: number | null;
}

/** What single logout needs of a session signed in through a provider. */
export interface SsoSessionsTable {
  session_id: string;
  user_id: string;
  domain: string;
  protocol: 'oidc' | 'saml';
  /** SAML NameID; OIDC `sub`. */
  subject: string;
  /** SAML SessionIndex; OIDC `sid` (when the provider sends one). */
  session_index: string | null;
  name_id_format: string | null;
  /** The ID token, sealed (OIDC RP-initiated logout's id_token_hint). */
  id_token: string | null;
  created_at: number;
}

/** One identity provider per e-mail domain (modules/accounts/sso). */
export interface SsoConnectionsTable {
  domain: string;
  /**
   * Stable random id: the last segment of the connection's own OIDC redirect URI (migration 012 fills
   * it for every row and `sso set` always sets it; the column is nullable only because SQLite adds it so).
   */
  id: string | null;
  /** 1: still answered on the old shared OIDC redirect URI (a connection made before migration 012). */
  shared_callback: Generated<number>;
  protocol: 'oidc' | 'saml';
  /** The protocol's settings as JSON (issuer, client id, scopes / IdP entity ID, SSO URL, certificates). */
  settings: string;
  /** The OIDC client secret, sealed (AES-256-GCM, key derived from SESSION_SECRET); null for SAML. */
  secret: string | null;
  created_at: number;
  updated_at: number;
}

/** A further e-mail domain of a single-sign-on connection (its first one is `sso_connections.domain`). */
export interface SsoConnectionDomainsTable {
  domain: string;
  connection_domain: string;
}

/** The provider's subject of an account (OIDC iss+sub, SAML IdP entity ID+persistent NameID). */
export interface SsoIdentitiesTable {
  user_id: string;
  issuer: string;
  subject: string;
  created_at: number;
}

/** A WebAuthn credential (passkey) of an account. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url credential id, unique over all accounts. */
  credential_id: string;
  /** base64url COSE public key. */
  public_key: string;
  /** The authenticator's signature counter (0 for authenticators that keep none). */
  counter: number;
  /** JSON array of the transports the browser reported. */
  transports: string;
  name: string;
  /** 1: backed up (synced) by its provider. */
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}

/** An account's authenticator-app secret (encrypted); on once `enabled_at` is set. */
export interface TotpFactorsTable {
  user_id: string;
  secret_enc: string;
  enabled_at: number | null;
  /** The newest RFC 6238 time step accepted: a code of that step or an older one is refused. */
  last_step: Generated<number>;
  created_at: number;
}

/** A single-use recovery code, stored as its HMAC. */
export interface RecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: number | null;
  created_at: number;
}

/**
 * The one store of short-lived, single-use state shared by all instances (modules/accounts/state):
 * keyed by the SHA-256 of the value, so a leaked table hands out no live value.
 */
export interface FlowStateTable {
  id: string;
  purpose: string;
  /** The account the value belongs to, when it belongs to one. */
  subject: string | null;
  data: string | null;
  attempts: Generated<number>;
  expires_at: number;
}

/** The team invitation link of an inviter (modules/accounts/invites): its generation, validity, off. */
export interface TeamLinksTable {
  user_id: string;
  generation: number;
  created_at: number;
  expires_at: number;
  off_at: number | null;
}

/** Who administers a domain (modules/admin): granted by the operator, another administrator or a DNS proof. */
export interface DomainAdminsTable {
  domain: string;
  user_id: string;
  via: 'operator' | 'admin' | 'dns';
  granted_by: string | null;
  created_at: number;
  /** The last daily check of a DNS claim's record. */
  checked_at: number | null;
  /** A DNS claim whose record is gone since then (the administrators were told); dropped after the grace. */
  record_missing_since: number | null;
}

/** A domain's sign-up mode and security policy (no row: open, no policy). */
export interface DomainSettingsTable {
  domain: string;
  signup_mode: Generated<'open' | 'invite' | 'approval'>;
  require_two_step: Generated<number>;
  two_step_grace_days: Generated<number>;
  two_step_grace_until: number | null;
  session_max_ms: number | null;
  session_idle_ms: number | null;
  /** 0: no browser may skip the second step ("Trust this browser"); default 1. */
  trust_browsers: Generated<number>;
  updated_at: number;
}

/** "Ask for access" and approval sign-ups; `token_hash`: SHA-256 of the mail link's token, cleared once used. */
export interface AccessRequestsTable {
  id: string;
  domain: string;
  email: string;
  reason: 'domain_inactive' | 'sso_unavailable' | 'invite_only' | 'approval';
  message: string | null;
  language: string;
  status: 'pending' | 'approved' | 'refused';
  token_hash: string | null;
  token_expires_at: number | null;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  /** 1: announced without its own mail (the domain's daily share was used up). */
  mail_held: Generated<number>;
  /** When the approval admitted its sign-up (it admits one). */
  used_at: number | null;
}

/** Append-only audit trail per domain (modules/audit), written in the transaction of the change. */
export interface AuditEventsTable {
  id: string;
  domain: string;
  at: number;
  kind: string;
  action: string;
  actor_id: string | null;
  actor_email: string | null;
  target_id: string | null;
  target_email: string | null;
  reason: string | null;
  ip: string | null;
  /** JSON object of plain values. */
  details: Generated<string>;
}

export interface Database {
  passkeys: PasskeysTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  flow_state: FlowStateTable;
  users: UsersTable;
  sessions: SessionsTable;
  profiles: ProfilesTable;
  domains: DomainsTable;
  codes: CodesTable;
  mail_outbox: MailOutboxTable;
  invites: InvitesTable;
  videoconferences: VideoconferencesTable;
  guests: GuestsTable;
  meeting_sessions: MeetingSessionsTable;
  meeting_cohosts: MeetingCohostsTable;
  meeting_lobby_requests: MeetingLobbyRequestsTable;
  meeting_invitees: MeetingInviteesTable;
  files: FilesTable;
  file_shares: FileSharesTable;
  file_reservations: FileReservationsTable;
  sso_connections: SsoConnectionsTable;
  sso_connection_domains: SsoConnectionDomainsTable;
  sso_identities: SsoIdentitiesTable;
  team_links: TeamLinksTable;
  sso_sp_keys: SsoSpKeysTable;
  sso_sessions: SsoSessionsTable;
  domain_admins: DomainAdminsTable;
  domain_settings: DomainSettingsTable;
  access_requests: AccessRequestsTable;
  audit_events: AuditEventsTable;
}
