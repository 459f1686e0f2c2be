import {
  ADMIN_SSO_FAILURES_MAX,
  API,
  API_PREFIX,
  type AdminSsoConnection,
  type AdminSsoFailure,
  type AdminSsoResponse,
  type AdminSsoSetupRequest,
  type SsoTestResult,
  type SsoTestResultResponse,
  type SsoTestStartResponse,
} from '@suite/contract';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import {
  DomainTakenError,
  EntityIdTakenError,
  accountsAdmin,
  certificatesOf,
  fetchIdpMetadata,
  parseIdpMetadata,
  type SsoConnection,
} from '../accounts/index.js';
import { recordAudit } from '../audit/index.js';
import { auditRepository, type AuditRow } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { requireAdmin, requireFresh } from './guard.js';
import { iso } from './http.js';
import { adminsRepository } from './repository.js';

function connectionView(c: SsoConnection): AdminSsoConnection {
  const common = {
    domains: c.domains,
    awaiting_test: Boolean(c.settings.awaitingTest),
    updated_at: iso(c.updatedAt) as string,
  };
  if (c.protocol === 'oidc') {
    return {
      ...common,
      protocol: 'oidc',
      issuer: c.settings.issuer,
      client_id: c.settings.clientId,
      entity_id: null,
      sso_url: null,
      metadata_url: null,
      metadata_read_at: null,
      certificates: [],
      sha1: null,
      logout_url: null,
      idp_initiated: false,
    };
  }
  return {
    ...common,
    protocol: 'saml',
    issuer: null,
    client_id: null,
    entity_id: c.settings.entityId,
    sso_url: c.settings.ssoUrl,
    metadata_url: c.settings.metadataUrl ?? null,
    metadata_read_at: iso(c.settings.metadataReadAt),
    certificates: certificatesOf(c.settings).map((cert) => ({
      fingerprint: cert.fingerprint,
      expires_at: iso(cert.expiresAt),
      warning: cert.warning ?? null,
    })),
    sha1: c.settings.sha1 ?? 'warn',
    logout_url: c.settings.sloUrl ?? null,
    idp_initiated: Boolean(c.settings.allowIdpInitiated),
  };
}

function failureView(row: AuditRow): AdminSsoFailure {
  let detail = '';
  try {
    const details = JSON.parse(row.details) as { detail?: unknown };
    detail = typeof details.detail === 'string' ? details.detail : '';
  } catch {
    detail = '';
  }
  return {
    at: iso(row.at) as string,
    step: row.action,
    reason: row.reason ?? '',
    email: row.target_email,
    detail,
    ip: row.ip,
  };
}

/**
 * The console's single-sign-on page: the connection of the domain (never its client secret), its
 * last failures with their reasons (the audit trail's sso_failed events, written where a refusal is
 * logged), and our addresses to paste into the provider. A read: no fresh proof needed.
 */
export async function ssoState(deps: AdminDeps, user: SessionUser, domain: string): Promise<AdminSsoResponse> {
  await requireAdmin(deps.db, user, domain);
  const accounts = accountsAdmin(deps.db);
  const [connection, rules, admins, failures] = await Promise.all([
    accounts.ssoConnections(deps.config.keys.sso).get(domain),
    accounts.domainRules(domain),
    adminsRepository(deps.db).list(domain),
    auditRepository(deps.db).page({ domain, kind: 'sso_failed' }, null, ADMIN_SSO_FAILURES_MAX),
  ]);
  const api = `${deps.config.publicUrl}${API_PREFIX}`;
  return {
    domain,
    // A DNS claim whose record vanished is being dropped: it no longer proves the domain.
    proven: admins.some((a) => a.via === 'dns' && a.record_missing_since === null),
    sso_only: rules.ssoOnly,
    connection: connection ? connectionView(connection) : null,
    failures: failures.map(failureView),
    ours: {
      saml_entity_id: `${api}${API.ssoSamlMetadata}`,
      saml_metadata_url: `${api}${API.ssoSamlMetadata}`,
      saml_acs_url: `${api}${API.ssoSamlAcs}`,
      saml_slo_url: `${api}${API.ssoSamlSlo}`,
      oidc_redirect_uri: connection?.protocol === 'oidc' ? `${api}${API.ssoOidcCallback}/${connection.id}` : null,
      oidc_backchannel_logout_uri:
        connection?.protocol === 'oidc' ? `${api}${API.ssoOidcBackchannelLogout}/${connection.id}` : null,
      oidc_post_logout_redirect_uri: `${deps.config.publicUrl}/user/login`,
      start_url: `${api}${API.ssoStart}?domain=${encodeURIComponent(domain)}`,
    },
  };
}

/** How long a browser waits before asking a provider that did not answer again. */
const PROVIDER_RETRY_AFTER_S = 30;

/** What the Test sign-in needs of accounts: start it (setting this browser's binding), read its result. */
export interface SsoTests {
  start(domain: string, userId: string): Promise<string | null>;
  result(domain: string, userId: string): Promise<SsoTestResult | null>;
}

/**
 * Starts a Test sign-in of the domain's connection by this administrator (an action: fresh proof). A
 * provider that cannot be reached (OIDC discovery) answers 503 with Retry-After, never a 500.
 */
export async function startSsoTest(
  deps: AdminDeps,
  tests: SsoTests,
  user: SessionUser,
  domain: string,
): Promise<SsoTestStartResponse> {
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  let url: string | null;
  try {
    url = await tests.start(domain, user.id);
  } catch (error) {
    throw Object.assign(new AppError('ERR_SSO_PROVIDER_UNAVAILABLE', { retryAfterS: PROVIDER_RETRY_AFTER_S }), {
      cause: error,
    });
  }
  if (!url) throw new AppError('ERR_SSO_NO_CONNECTION');
  return { url };
}

/** This administrator's last Test sign-in of the domain (a read). */
export async function ssoTestResult(
  deps: AdminDeps,
  tests: SsoTests,
  user: SessionUser,
  domain: string,
): Promise<SsoTestResultResponse> {
  await requireAdmin(deps.db, user, domain);
  return { result: await tests.result(domain, user.id) };
}

/** An administrator of a domain proved it by its DNS record (a claim whose record vanished does not count). */
async function proven(deps: AdminDeps, domain: string): Promise<boolean> {
  return (await adminsRepository(deps.db).list(domain)).some((a) => a.via === 'dns' && a.record_missing_since === null);
}

/**
 * Sets the domain's connection up from the console: only for a domain an administrator proved by DNS
 * (the console must not let someone route a domain's sign-ins to a provider of their choosing on the
 * strength of an operator's grant alone), with a fresh proof. It starts switched off (`awaitingTest`):
 * people keep signing in as before until a Test sign-in passes. SHA-1 is refused, as for any new connection.
 */
export async function setupSso(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  body: AdminSsoSetupRequest,
  ip: string,
): Promise<AdminSsoResponse> {
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  if (!(await proven(deps, domain))) throw new AppError('ERR_SSO_DOMAIN_NOT_PROVEN');
  // A connection set up here starts off until tested: on an SSO-only domain, where passwords are refused,
  // that would lock everyone out (the tester included), so SSO-only goes off first.
  if ((await accountsAdmin(deps.db).domainRules(domain)).ssoOnly) throw new AppError('ERR_SSO_SETUP_SSO_ONLY');
  const connections = accountsAdmin(deps.db).ssoConnections(deps.config.keys.sso);
  const existing = await connections.get(domain);
  // A further domain of another domain's connection is set up there, by its administrators.
  if (existing && existing.domain !== domain) throw new AppError('ERR_SSO_SETUP_INVALID');
  try {
    if (body.protocol === 'oidc') {
      await connections.set(domain, {
        protocol: 'oidc',
        settings: {
          issuer: body.issuer,
          clientId: body.client_id,
          scopes: 'openid email profile',
          sha1: 'refuse',
          awaitingTest: true,
        },
        clientSecret: body.client_secret,
      });
    } else {
      let xml: string;
      if (body.metadata_url) {
        try {
          xml = await fetchIdpMetadata(body.metadata_url);
        } catch (error) {
          throw Object.assign(new AppError('ERR_SSO_PROVIDER_UNAVAILABLE', { retryAfterS: PROVIDER_RETRY_AFTER_S }), {
            cause: error,
          });
        }
      } else xml = body.metadata_xml ?? '';
      let read: ReturnType<typeof parseIdpMetadata>;
      try {
        read = parseIdpMetadata(xml);
      } catch (error) {
        throw Object.assign(new AppError('ERR_SSO_SETUP_INVALID'), { cause: error });
      }
      await connections.set(domain, {
        protocol: 'saml',
        settings: {
          ...read,
          ...(body.metadata_url ? { metadataUrl: body.metadata_url, metadataReadAt: Date.now() } : {}),
          sha1: 'refuse',
          awaitingTest: true,
        },
      });
    }
  } catch (error) {
    if (error instanceof DomainTakenError) throw new AppError('ERR_SSO_SETUP_INVALID');
    // One IdP serving several domains is one connection with further domains: the operator's to extend.
    if (error instanceof EntityIdTakenError) throw new AppError('ERR_SSO_PROVIDER_TAKEN');
    throw error;
  }
  // The connection's write is its own transaction (connections.set); the event follows it at once.
  await recordAudit(deps.db, {
    kind: 'policy_changed',
    action: 'sso_setup',
    domain,
    actor: { id: user.id, email: user.email },
    ip,
    details: { protocol: body.protocol },
  });
  return ssoState(deps, user, domain);
}
