import { X509Certificate } from 'node:crypto';
import { API, API_PREFIX } from '@suite/contract';
import {
  certificatesOf,
  describeError,
  fetchIdpMetadata,
  parseIdpMetadata,
  type SsoConnection,
} from '../src/modules/accounts/index.js';

type Out = (line: string) => void;

const TIMEOUT_MS = 10_000;
/** Signature algorithms of ID tokens we take (openid-client's defaults, no `none`, no HS with a public client). */
const WEAK_JWS = new Set(['none']);

/** A GET that answers the JSON or throws an Error naming the cause (status, network, TLS trust). */
async function getJson(url: string, what: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`${what} ${url} could not be read: ${describeError(error)}`);
  }
  if (!response.ok) throw new Error(`${what} ${url} answered HTTP ${response.status} ${response.statusText}`);
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch {
    throw new Error(`${what} ${url} did not answer JSON`);
  }
}

/**
 * `sso test <domain>`: what an IT team checks before telling its people to sign in, each line `ok:` or
 * `PROBLEM:` with its cause; answers whether all was well.
 */
export async function testConnection(c: SsoConnection, publicUrl: string, out: Out): Promise<boolean> {
  let healthy = true;
  const ok = (line: string) => out(`ok: ${line}`);
  const problem = (line: string) => {
    healthy = false;
    out(`PROBLEM: ${line}`);
  };
  out(`${c.domain}: ${c.protocol === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'} connection ${c.id}`);
  if (c.protocol === 'oidc') await testOidc(c, ok, problem);
  else await testSaml(c, ok, problem);
  for (const d of c.domains) out(`start URL for ${d}: ${publicUrl}${API_PREFIX}${API.ssoStart}?domain=${d}`);
  out(healthy ? 'all checks passed: open a start URL above in a private window to try a sign-in' : 'problems found');
  return healthy;
}

async function testOidc(c: Extract<SsoConnection, { protocol: 'oidc' }>, ok: Out, problem: Out): Promise<void> {
  const issuer = c.settings.issuer;
  // OIDC Discovery: the issuer with its path, then the well-known suffix (a trailing slash not doubled).
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let discovery: Record<string, unknown>;
  try {
    discovery = await getJson(url, 'discovery document');
  } catch (error) {
    return problem((error as Error).message);
  }
  ok(`discovery document ${url} read over trusted TLS`);
  if (discovery.issuer !== issuer)
    return problem(
      `the provider names itself ${JSON.stringify(discovery.issuer)}, the connection ${JSON.stringify(issuer)}: issuers must match exactly (a trailing slash too); sso set --issuer ${String(discovery.issuer)}`,
    );
  ok(`issuer ${issuer} matches exactly`);
  const algs = Array.isArray(discovery.id_token_signing_alg_values_supported)
    ? (discovery.id_token_signing_alg_values_supported as string[])
    : [];
  const usable = algs.filter((a) => !WEAK_JWS.has(a));
  if (usable.length === 0) problem(`ID token signing algorithms: ${algs.join(', ') || 'none announced'}`);
  else ok(`ID token signing algorithms: ${usable.join(', ')}`);
  if (typeof discovery.jwks_uri === 'string') {
    try {
      const jwks = await getJson(discovery.jwks_uri, 'signing keys');
      const keys = Array.isArray(jwks.keys) ? (jwks.keys as { kty?: string; alg?: string; kid?: string }[]) : [];
      if (keys.length === 0) problem(`signing keys ${discovery.jwks_uri}: none published`);
      else
        ok(
          `signing keys: ${keys.map((k) => `${k.kty ?? '?'}${k.alg ? `/${k.alg}` : ''}${k.kid ? ` ${k.kid}` : ''}`).join(', ')}`,
        );
    } catch (error) {
      problem((error as Error).message);
    }
  }
  // The client: a token request with a code that cannot be valid says, by the provider's refusal,
  // whether it knows our client and secret (invalid_grant) or not (invalid_client).
  if (typeof discovery.token_endpoint === 'string') {
    try {
      const response = await fetch(discovery.token_endpoint, {
        method: 'POST',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'sso-test-not-a-code',
          redirect_uri: 'https://invalid.invalid/',
          client_id: c.settings.clientId,
          client_secret: c.clientSecret,
        }).toString(),
      });
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      if (body.error === 'invalid_client' || body.error === 'unauthorized_client' || response.status === 401)
        problem(
          `the provider refuses client ${c.settings.clientId} (${body.error ?? `HTTP ${response.status}`}): check the client id and secret`,
        );
      else ok(`client ${c.settings.clientId} and its secret are accepted by the token endpoint`);
    } catch (error) {
      problem(`token endpoint ${discovery.token_endpoint}: ${describeError(error)}`);
    }
  }
  ok(
    c.settings.trustEmail
      ? 'addresses trusted without email_verified (--trust-email)'
      : 'addresses need email_verified true (sso set --trust-email when the provider is the authority)',
  );
}

async function testSaml(c: Extract<SsoConnection, { protocol: 'saml' }>, ok: Out, problem: Out): Promise<void> {
  let settings = c.settings;
  if (settings.metadataUrl) {
    try {
      const read = parseIdpMetadata(await fetchIdpMetadata(settings.metadataUrl), settings.entityId);
      ok(`metadata ${settings.metadataUrl} read over trusted TLS`);
      const fresh = read.certificates.filter((x) => !settings.certificates.includes(x));
      if (fresh.length > 0)
        problem(
          `the metadata now has ${fresh.length} certificate(s) the connection does not hold: sso refresh ${c.domain}`,
        );
      settings = { ...settings, certificates: [...new Set([...settings.certificates, ...read.certificates])] };
    } catch (error) {
      problem((error as Error).message);
    }
  } else ok('metadata from a file (not refreshed)');
  const states = certificatesOf(settings);
  settings.certificates.forEach((body, i) => {
    const cert = states[i]!;
    let key: string;
    try {
      const publicKey = new X509Certificate(Buffer.from(body, 'base64')).publicKey;
      const details = publicKey.asymmetricKeyDetails;
      key = `${(publicKey.asymmetricKeyType ?? '?').toUpperCase()}${details?.modulusLength ? ` ${details.modulusLength} bits` : details?.namedCurve ? ` ${details.namedCurve}` : ''}`;
      if (publicKey.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) < 2048)
        problem(`signing certificate SHA-256 ${cert.fingerprint}: ${key} is too weak (2048 bits or more)`);
    } catch {
      return problem(`signing certificate SHA-256 ${cert.fingerprint}: unreadable`);
    }
    const until = cert.expiresAt ? new Date(cert.expiresAt).toISOString() : '?';
    if (cert.warning === 'expired') problem(`signing certificate SHA-256 ${cert.fingerprint} (${key}) ended ${until}`);
    else if (cert.warning === 'expiring')
      problem(
        `signing certificate SHA-256 ${cert.fingerprint} (${key}) ends within 30 days (${until}): ask the IdP for its next one`,
      );
    else ok(`signing certificate SHA-256 ${cert.fingerprint} (${key}) valid until ${until}`);
  });
  if (settings.sha1 === 'refuse') ok('signatures: RSA-SHA256 or stronger required (SHA-1 refused)');
  else if (settings.sha1 === 'allow')
    ok('signatures: SHA-1 accepted (--allow-sha1): ask the IdP to sign with RSA-SHA256');
  else
    problem('signatures: SHA-1 still accepted (a connection made before the rule): sso set it again to refuse SHA-1');
  try {
    const response = await fetch(settings.ssoUrl, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    ok(
      `IdP sign-on URL ${settings.ssoUrl} answers (HTTP ${response.status})${settings.ssoUrl.startsWith('https:') ? ' over trusted TLS' : ''}`,
    );
  } catch (error) {
    problem(`IdP sign-on URL ${settings.ssoUrl} cannot be reached from here: ${describeError(error)}`);
  }
}
