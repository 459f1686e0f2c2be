import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LANGUAGES, isEmailShape, normalizeEmail, type Language } from '@suite/contract';
import { ConfigError, loadConfig, prepareDataDir, type Env } from '../src/config.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { readFile } from 'node:fs/promises';
import { API, API_PREFIX, SSO_SP_KEY_OVERLAP_DAYS } from '@suite/contract';
import {
  DEFAULT_ATTRIBUTES,
  DomainTakenError,
  EntityIdTakenError,
  accountsAdmin,
  certificatesOf,
  describeError,
  fetchIdpMetadata,
  parseIdpMetadata,
  type DomainChange,
  type DomainRules,
  type SsoConnection,
} from '../src/modules/accounts/index.js';
import { outboxRepository } from '../src/plugins/outbox-repository.js';
import { testConnection } from './sso-test.js';
import { adminCli } from '../src/modules/admin/index.js';

const USAGE = `Usage: npm run admin -- <command>

  domain set <domain> [--active | --inactive] [--mail-server-hosted | --not-mail-server-hosted]
                      [--sso-only | --password-login] [--free-limit N | --no-free-limit]
                      [--trust-browsers | --no-trust-browsers]   (may a two-step sign-in trust its browser for 30 days)
  domain list
  domain admin add <domain> <email>      make a registered person of the domain its administrator
  domain admin remove <domain> <email>
  domain admin list <domain>
  audit export --domain <domain>         the domain's audit trail as CSV on stdout, newest first
  users list [--domain <domain>]
  users activate <email> | users deactivate <email>
  users reset-factors <email>   turn off two-step verification, remove passkeys, end sessions (mailed to the person)
  invite <email> [--language en|pt|es|hi|it]   queue an invitation mail (also for personal addresses)
  sso set <domain> --oidc --issuer <https URL> --client-id <id> --client-secret <secret> [--scopes "openid email profile"]
                                 [--hosted-domain <Google Workspace domain>] [--trust-email]
  sso set <domain> --saml --metadata <file path or https URL> [--entity-id <IdP entity ID in a federation file>]
                                 [--allow-sha1] [--allow-idp-initiated]   (app tile sign-in, asks "Continue as …?")
        both: [--domains <further domains, a.com,b.com>] [--email-attribute <name>]
              [--first-name-attribute <name>] [--last-name-attribute <name>]
        --trust-email: the provider is the authority for the domains (no email_verified needed, Entra ID)
        the issuer is kept exactly as given, a trailing slash included
  sso show <domain>            the connection (never the client secret) and the addresses to give the IdP
  sso refresh <domain>         read the IdP's metadata URL again now (the server does it daily)
  sso test <domain>            check discovery or metadata, TLS trust, certificates, algorithms; print the start URL
  sso use-own-redirect-uri <domain>   after registering the connection's own redirect URI at the provider:
                                 stop answering this connection on the old shared one
  sso remove <domain>
  sso sp-key show              our SAML encryption and signing certificate (in our metadata)
  sso sp-key rotate            a new SAML key pair; the old one still decrypts for ${SSO_SP_KEY_OVERLAP_DAYS} days
  mail failed [--limit N]                      mails given up (SMTP 5xx, expired, 72 h), newest first

Uses the same settings as the server (DATA_DIR or DATABASE_URL, PUBLIC_URL, ...).`;

type Out = (line: string) => void;

class UsageError extends Error {}
/** A command that ran and failed (exit 1): its message names the cause. */
class CommandError extends Error {}

const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/;

function domainArg(value: string | undefined): string {
  const name = normalizeEmail(value ?? '');
  if (!DOMAIN.test(name)) throw new UsageError(`not a domain name: ${value ?? '(missing)'}`);
  return name;
}

function emailArg(value: string | undefined): string {
  if (!value || !isEmailShape(value.trim())) throw new UsageError(`not an e-mail address: ${value ?? '(missing)'}`);
  return normalizeEmail(value);
}

const describe = (d: DomainRules) =>
  `${d.name}: ${d.active ? 'active' : 'INACTIVE'}, ${d.mailServerHosted ? 'mail-server hosted' : 'not mail-server hosted'}, ` +
  `${d.ssoOnly ? 'SSO only' : 'password login'}, free limit ${d.freePlanLimit ?? 'none'}, ` +
  `${d.trustBrowsers ? 'trusted browsers allowed' : 'no trusted browsers'}`;

function pick(flags: Record<string, boolean | string | undefined>, on: string, off: string): boolean | undefined {
  if (flags[on] && flags[off]) throw new UsageError(`--${on} and --${off} contradict each other`);
  return flags[on] ? true : flags[off] ? false : undefined;
}

async function domainSet(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      active: { type: 'boolean' },
      inactive: { type: 'boolean' },
      'mail-server-hosted': { type: 'boolean' },
      'not-mail-server-hosted': { type: 'boolean' },
      'sso-only': { type: 'boolean' },
      'password-login': { type: 'boolean' },
      'free-limit': { type: 'string' },
      'no-free-limit': { type: 'boolean' },
      'trust-browsers': { type: 'boolean' },
      'no-trust-browsers': { type: 'boolean' },
    },
  });
  const change: DomainChange = {};
  const active = pick(values, 'active', 'inactive');
  const hosted = pick(values, 'mail-server-hosted', 'not-mail-server-hosted');
  const sso = pick(values, 'sso-only', 'password-login');
  if (active !== undefined) change.active = active;
  if (hosted !== undefined) change.mailServerHosted = hosted;
  if (sso !== undefined) change.ssoOnly = sso;
  if (values['free-limit'] !== undefined) {
    const n = Number(values['free-limit']);
    if (!Number.isInteger(n) || n < 0) throw new UsageError('--free-limit needs a whole number >= 0');
    change.freePlanLimit = n;
  }
  if (values['no-free-limit']) change.freePlanLimit = null;
  const trust = pick(values, 'trust-browsers', 'no-trust-browsers');
  if (Object.keys(change).length === 0 && trust === undefined) throw new UsageError('nothing to set');
  const domain = domainArg(positionals[0]);
  // The trust switch is the console's security policy (audited there too), not one of the domain's rules.
  if (trust !== undefined) await adminCli(db.kysely, loadConfig(env)).setTrustBrowsers(domain, trust);
  const accounts = accountsAdmin(db.kysely);
  out(
    describe(
      Object.keys(change).length > 0 ? await accounts.setDomain(domain, change) : await accounts.domainRules(domain),
    ),
  );
}

async function usersList(db: Db, args: string[], out: Out): Promise<void> {
  const { values } = parseArgs({ args, options: { domain: { type: 'string' } } });
  const rows = await accountsAdmin(db.kysely).listUsers(values.domain && domainArg(values.domain));
  out(['email', 'confirmed', 'registered', 'active', 'created'].join('\t'));
  for (const u of rows) {
    const yes = (v: unknown) => (v ? 'yes' : 'no');
    out(
      [u.email, yes(u.confirmed_at), yes(u.registered_at), yes(u.active), new Date(u.created_at).toISOString()].join(
        '\t',
      ),
    );
  }
  out(`${rows.length} user(s)`);
}

async function setActive(db: Db, email: string, active: boolean, out: Out): Promise<void> {
  if (!(await accountsAdmin(db.kysely).setUserActive(email, active))) throw new UsageError(`no user ${email}`);
  out(`${email}: ${active ? 'active' : 'not active'}`);
}

async function invite(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { language: { type: 'string' } },
  });
  const language = (values.language ?? 'en') as Language;
  if (!LANGUAGES.includes(language)) throw new UsageError(`--language must be one of ${LANGUAGES.join(', ')}`);
  const config = loadConfig(env);
  const { url } = await accountsAdmin(db.kysely).invite(config, {
    email: emailArg(positionals[0]),
    inviterId: null,
    inviter: null,
    language,
  });
  out(`invitation queued (the running server mails it): ${url}`);
}

/** The IdP's metadata: a file, or an https URL (10 s); errors name their cause (TLS trust included). */
async function metadataXml(source: string): Promise<string> {
  if (/^https:\/\//.test(source)) {
    return fetchIdpMetadata(source).catch((error: unknown) => {
      throw new UsageError(`metadata: ${(error as Error).message}`);
    });
  }
  if (/^http:\/\//.test(source))
    throw new UsageError('metadata: an http:// URL could be altered on the way; use https:// or a file');
  return readFile(source, 'utf8').catch((error: unknown) => {
    throw new UsageError(`metadata: cannot read ${source}: ${describeError(error)}`);
  });
}

/** An attribute or claim name given to --*-attribute: printable, no spaces, bounded. */
function attributeArg(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,256}$/.test(value)) throw new UsageError(`--${flag} must be an attribute or claim name`);
  return value;
}

async function ssoSet(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      oidc: { type: 'boolean' },
      saml: { type: 'boolean' },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      scopes: { type: 'string' },
      'hosted-domain': { type: 'string' },
      metadata: { type: 'string' },
      'entity-id': { type: 'string' },
      domains: { type: 'string' },
      'email-attribute': { type: 'string' },
      'first-name-attribute': { type: 'string' },
      'last-name-attribute': { type: 'string' },
      'trust-email': { type: 'boolean' },
      'allow-sha1': { type: 'boolean' },
      'allow-idp-initiated': { type: 'boolean' },
    },
  });
  const domain = domainArg(positionals[0]);
  const config = loadConfig(env);
  const connections = accountsAdmin(db.kysely).ssoConnections(config.keys.sso);
  if (values.oidc === values.saml) throw new UsageError('say --oidc or --saml');
  if (values.oidc && values['allow-idp-initiated'])
    throw new UsageError('--allow-idp-initiated is for SAML connections (OpenID Connect has no unsolicited sign-in)');
  const further =
    values.domains === undefined
      ? undefined
      : values.domains
          .split(',')
          .map((d) => d.trim())
          .filter(Boolean)
          .map(domainArg);
  const emailAttribute = attributeArg('email-attribute', values['email-attribute']);
  const firstNameAttribute = attributeArg('first-name-attribute', values['first-name-attribute']);
  const lastNameAttribute = attributeArg('last-name-attribute', values['last-name-attribute']);
  const mapping = {
    ...(emailAttribute ? { email: emailAttribute } : {}),
    ...(firstNameAttribute ? { firstName: firstNameAttribute } : {}),
    ...(lastNameAttribute ? { lastName: lastNameAttribute } : {}),
  };
  const existing = await connections.get(domain);
  if (existing && existing.domain !== domain)
    throw new UsageError(
      `${domain} is a further domain of the connection of ${existing.domain}: sso set ${existing.domain}`,
    );
  // SHA-1: refused for a new connection unless allowed; a connection made before the rule keeps its
  // standing (accepted, warned about daily) until the operator says otherwise.
  const sha1 = values['allow-sha1'] ? 'allow' : existing ? existing.settings.sha1 : 'refuse';
  const common = {
    ...(Object.keys(mapping).length ? { mapping } : {}),
    ...(values['trust-email'] ? { trustEmail: true } : {}),
    ...(sha1 ? { sha1 } : {}),
  } as const;
  try {
    if (values.oidc) {
      const issuer = values.issuer ?? '';
      if (!/^https:\/\/[^\s]+$/.test(issuer))
        throw new UsageError("--issuer must be the provider's https:// issuer URL");
      if (!values['client-id']) throw new UsageError('--client-id is required');
      if (!values['client-secret']) throw new UsageError('--client-secret is required');
      if (values['allow-sha1'] || values['entity-id'])
        throw new UsageError('--allow-sha1 and --entity-id are for --saml');
      const scopes = (values.scopes ?? 'openid email profile').trim().replace(/\s+/g, ' ');
      if (!scopes.split(' ').includes('openid') || !scopes.split(' ').includes('email')) {
        throw new UsageError('--scopes must include openid and email');
      }
      await connections.set(
        domain,
        {
          protocol: 'oidc',
          settings: {
            // Exactly as given: discovery and the ID token's iss compare it as is (Keycloak realms and
            // Authentik end theirs with a slash).
            issuer,
            clientId: values['client-id'],
            scopes,
            ...(values['hosted-domain'] ? { hostedDomain: domainArg(values['hosted-domain']) } : {}),
            ...common,
          },
          clientSecret: values['client-secret'],
        },
        further,
      );
    } else {
      if (!values.metadata) throw new UsageError('--metadata <file or https URL> is required');
      if (values['trust-email']) throw new UsageError('--trust-email is for --oidc (SAML has no email_verified)');
      let read;
      try {
        read = parseIdpMetadata(await metadataXml(values.metadata), values['entity-id']);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`metadata: ${(error as Error).message}`);
      }
      const fromUrl = /^https:\/\//.test(values.metadata);
      await connections.set(
        domain,
        {
          protocol: 'saml',
          settings: {
            ...read,
            ...(fromUrl ? { metadataUrl: values.metadata, metadataReadAt: Date.now() } : {}),
            ...(values['allow-idp-initiated'] ? { allowIdpInitiated: true } : {}),
            ...common,
          },
        },
        further,
      );
    }
  } catch (error) {
    if (error instanceof DomainTakenError || error instanceof EntityIdTakenError) throw new UsageError(error.message);
    throw error;
  }
  await ssoShow(db, env, [domain], out);
}

/** The attribute-mapping lines of `sso show`: the connection's names first, the defaults after. */
function describeMapping(c: SsoConnection): string[] {
  const fields = [
    ['email', 'e-mail'],
    ['firstName', 'first name'],
    ['lastName', 'last name'],
  ] as const;
  return [
    `  ${c.protocol === 'oidc' ? 'claims' : 'attributes'} read (case-insensitive, first present wins):`,
    ...fields.map(
      ([field, label]) =>
        `    ${label}: ${c.settings.mapping?.[field] ? `${c.settings.mapping[field]} (set), then ` : ''}${DEFAULT_ATTRIBUTES[field].join(', ')}${field === 'email' && c.protocol === 'saml' ? ', then a NameID that is an address' : ''}`,
    ),
  ];
}

function describeConnection(c: SsoConnection, publicUrl: string): string[] {
  const api = `${publicUrl}${API_PREFIX}`;
  const domains = [
    ...(c.settings.awaitingTest
      ? ['  state: OFF, set up in the console: nobody signs in through it until a Test sign-in there passes']
      : []),
    `  domains: ${c.domains.join(', ')}`,
    ...c.domains.map((d) => `  start URL (portal or app tile) for ${d}: ${api}${API.ssoStart}?domain=${d}`),
  ];
  if (c.protocol === 'oidc') {
    return [
      `${c.domain}: OpenID Connect`,
      ...domains,
      `  issuer: ${c.settings.issuer}`,
      `  client id: ${c.settings.clientId}`,
      '  client secret: set (stored encrypted, never shown)',
      `  scopes: ${c.settings.scopes}`,
      ...(c.settings.hostedDomain ? [`  Google hosted domain (hd): ${c.settings.hostedDomain}`] : []),
      c.settings.trustEmail
        ? '  e-mail addresses: trusted as the provider sends them (--trust-email: it is the authority for the domains)'
        : '  e-mail addresses: taken only with email_verified true (sso set --trust-email when the provider is the authority)',
      ...describeMapping(c),
      `  redirect URI to register at the provider: ${api}${API.ssoOidcCallback}/${c.id}`,
      `  back-channel logout URI to register: ${api}${API.ssoOidcBackchannelLogout}/${c.id}`,
      `  post-logout redirect URI to register: ${publicUrl}/user/login`,
      ...(c.sharedCallback
        ? [
            `  still answered on the old shared redirect URI ${api}${API.ssoOidcCallback}: register the one above,`,
            `  then run: sso use-own-redirect-uri ${c.domain}`,
          ]
        : []),
    ];
  }
  const certificates = certificatesOf(c.settings).map((cert) => {
    const until =
      cert.expiresAt === undefined ? 'unreadable certificate' : `valid until ${new Date(cert.expiresAt).toISOString()}`;
    const warning =
      cert.warning === 'expired'
        ? ' WARNING: ended, sign-ins signed with it fail'
        : cert.warning === 'expiring'
          ? ' WARNING: ends within 30 days, ask the IdP for its next certificate'
          : '';
    return `  signing certificate: SHA-256 ${cert.fingerprint} (${until})${warning}`;
  });
  return [
    `${c.domain}: SAML 2.0`,
    ...domains,
    `  IdP entity ID: ${c.settings.entityId}`,
    `  IdP sign-on URL: ${c.settings.ssoUrl}`,
    ...certificates,
    c.settings.metadataUrl
      ? `  metadata URL: ${c.settings.metadataUrl} (read daily; last read ${c.settings.metadataReadAt ? new Date(c.settings.metadataReadAt).toISOString() : 'never'})`
      : '  metadata: from a file (not refreshed; sso set --metadata <https URL> to have it read daily)',
    c.settings.sha1 === 'allow'
      ? '  SHA-1 signatures: accepted (--allow-sha1)'
      : c.settings.sha1 === 'refuse'
        ? '  SHA-1 signatures: refused (RSA-SHA256 or stronger required)'
        : '  SHA-1 signatures: accepted with a daily warning (a connection made before SHA-1 was refused)',
    ...describeMapping(c),
    `  our entity ID and metadata: ${api}${API.ssoSamlMetadata}`,
    `  our assertion consumer service (HTTP-POST): ${api}${API.ssoSamlAcs}`,
    `  our single logout service (HTTP-Redirect, HTTP-POST): ${api}${API.ssoSamlSlo}`,
    `  IdP single logout: ${c.settings.sloUrl ?? 'none in its metadata (sign-out ends only our session)'}`,
    `  IdP-initiated sign-in (app tile): ${c.settings.allowIdpInitiated ? 'allowed, after "Continue as …?"' : 'off (--allow-idp-initiated)'}`,
    `  app tile URL: ${api}${API.ssoStart}?domain=${c.domain}`,
  ];
}

async function ssoShow(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const domain = domainArg(args[0]);
  const config = loadConfig(env);
  const connection = await accountsAdmin(db.kysely).ssoConnections(config.keys.sso).get(domain);
  if (!connection) throw new UsageError(`no single-sign-on connection for ${domain}`);
  const rules = (await accountsAdmin(db.kysely).listDomains()).find((d) => d.name === domain);
  describeConnection(connection, config.publicUrl).forEach((line) => out(line));
  out(
    `  password login: ${rules?.ssoOnly ? 'refused (domain set --sso-only)' : 'allowed too (domain set --sso-only to refuse it)'}`,
  );
}

async function ssoRefresh(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const domain = domainArg(args[0]);
  const config = loadConfig(env);
  let result;
  try {
    result = await accountsAdmin(db.kysely).refreshSsoConnection(config.keys.sso, domain);
  } catch (error) {
    throw new CommandError(`sso refresh ${domain}: ${(error as Error).message}`);
  }
  if (!result) throw new UsageError(`no single-sign-on connection for ${domain}`);
  out(
    result.changed
      ? `${result.domain}: metadata read; certificates added: ${result.added.join(', ') || 'none'}; removed: ${result.removed.join(', ') || 'none'}`
      : `${result.domain}: metadata read; nothing changed`,
  );
  await ssoShow(db, env, [domain], out);
}

/** Our SAML key pair: shown, or rotated (the retired one still decrypts for the overlap). */
async function ssoSpKey(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const config = loadConfig(env);
  const metadata = `${config.publicUrl}${API_PREFIX}${API.ssoSamlMetadata}`;
  const keys = accountsAdmin(db.kysely).ssoSpKeys(config.keys.sso, metadata);
  if (args[0] === 'show') {
    const key = await keys.current();
    out(`SAML service provider certificate (encryption and signing): SHA-256 ${key.fingerprint}`);
    out(`  made ${new Date(key.createdAt).toISOString()}; published in ${metadata}`);
    return;
  }
  if (args[0] !== 'rotate') throw new UsageError('say sso sp-key show or sso sp-key rotate');
  const { current, retired, decryptsUntil } = await keys.rotate();
  out(`new SAML service provider certificate: SHA-256 ${current.fingerprint}, now in ${metadata}`);
  out(
    `  ${retired} older key(s) still decrypt until ${decryptsUntil.toISOString()} (${SSO_SP_KEY_OVERLAP_DAYS} days): ` +
      'IdPs that read the metadata URL take the new certificate within a day; give the new metadata to the others before then',
  );
}

async function mailFailed(db: Db, args: string[], out: Out): Promise<void> {
  const { values } = parseArgs({ args, options: { limit: { type: 'string' } } });
  const limit = Number(values.limit ?? 100);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit needs a whole number >= 1');
  const rows = await outboxRepository(db.kysely).failed(limit);
  out(['failed', 'to', 'kind', 'attempts', 'reason'].join('\t'));
  for (const r of rows) {
    out([new Date(Number(r.failed_at)).toISOString(), r.to_address, r.kind, r.attempts, r.last_error ?? ''].join('\t'));
  }
  out(`${rows.length} mail(s) given up`);
}

async function domainAdmin(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const [verb, domainValue, email] = args;
  const domain = domainArg(domainValue);
  const admins = adminCli(db.kysely, loadConfig(env)).admins;
  if (verb === 'add') {
    const address = emailArg(email);
    try {
      await admins.add(domain, address);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ERR_ADMIN_NOT_IN_DOMAIN')
        throw new UsageError(`${address} is not a registered person of ${domain}`);
      if (code === 'ERR_ADMIN_ALREADY') return out(`${address} already administers ${domain}`);
      throw error;
    }
    return out(`${address} now administers ${domain}`);
  }
  if (verb === 'remove') {
    const address = emailArg(email);
    if (!(await admins.remove(domain, address))) throw new UsageError(`${address} does not administer ${domain}`);
    return out(`${address} no longer administers ${domain}`);
  }
  if (verb === 'list') {
    const { admins: list } = await admins.list(domain);
    for (const a of list)
      out([a.email, a.via, a.created_at, a.drops_at ? `drops ${a.drops_at}` : ''].join('\t').trim());
    return out(`${list.length} administrator(s) of ${domain}`);
  }
  throw new UsageError(`unknown command: domain admin ${verb ?? ''}`);
}

async function auditExport(db: Db, env: Env, args: string[], out: Out): Promise<void> {
  const { values } = parseArgs({ args, options: { domain: { type: 'string' } } });
  const domain = domainArg(values.domain);
  // Batch by batch: the whole trail is never held in memory.
  for await (const chunk of adminCli(db.kysely, loadConfig(env)).auditCsv(domain))
    out(chunk.replace(/\r\n/g, '\n').replace(/\n$/, ''));
}

async function dispatch(db: Db, env: Env, argv: string[], out: Out): Promise<void> {
  const [group, action, ...rest] = argv;
  if (group === 'domain' && action === 'set') return domainSet(db, env, rest, out);
  if (group === 'domain' && action === 'admin') return domainAdmin(db, env, rest, out);
  if (group === 'audit' && action === 'export') return auditExport(db, env, rest, out);
  if (group === 'domain' && action === 'list')
    return void (await accountsAdmin(db.kysely).listDomains()).forEach((d) => out(describe(d)));
  if (group === 'users' && action === 'list') return usersList(db, rest, out);
  if (group === 'users' && (action === 'activate' || action === 'deactivate')) {
    return setActive(db, emailArg(rest[0]), action === 'activate', out);
  }
  if (group === 'users' && action === 'reset-factors') {
    const email = emailArg(rest[0]);
    if (!(await accountsAdmin(db.kysely).resetFactors(loadConfig(env), email)))
      throw new UsageError(`no user ${email}`);
    return out(`${email}: two-step verification off, passkeys removed, sessions ended; the person was mailed`);
  }
  if (group === 'sso' && action === 'set') return ssoSet(db, env, rest, out);
  if (group === 'sso' && action === 'show') return ssoShow(db, env, rest, out);
  if (group === 'sso' && action === 'refresh') return ssoRefresh(db, env, rest, out);
  if (group === 'sso' && action === 'test') {
    const domain = domainArg(rest[0]);
    const config = loadConfig(env);
    const connection = await accountsAdmin(db.kysely).ssoConnections(config.keys.sso).get(domain);
    if (!connection) throw new UsageError(`no single-sign-on connection for ${domain}`);
    if (!(await testConnection(connection, config.publicUrl, out)))
      throw new CommandError(`sso test ${domain}: problems found (above)`);
    return;
  }
  if (group === 'sso' && action === 'use-own-redirect-uri') {
    const domain = domainArg(rest[0]);
    const config = loadConfig(env);
    if (!(await accountsAdmin(db.kysely).ssoConnections(config.keys.sso).useOwnCallback(domain))) {
      throw new UsageError(`no single-sign-on connection for ${domain}`);
    }
    return ssoShow(db, env, [domain], out);
  }
  if (group === 'sso' && action === 'remove') {
    const domain = domainArg(rest[0]);
    const config = loadConfig(env);
    const connections = accountsAdmin(db.kysely).ssoConnections(config.keys.sso);
    const owner = (await connections.get(domain))?.domain;
    if (!(await connections.remove(domain))) throw new UsageError(`no single-sign-on connection for ${domain}`);
    return out(
      owner && owner !== domain
        ? `${domain}: removed from the single-sign-on connection of ${owner} (which keeps its other domains)`
        : `${domain}: single-sign-on connection removed`,
    );
  }
  if (group === 'sso' && action === 'sp-key') return ssoSpKey(db, env, rest, out);
  if (group === 'mail' && action === 'failed') return mailFailed(db, rest, out);
  if (group === 'invite') return invite(db, env, [action ?? '', ...rest].filter(Boolean), out);
  throw new UsageError(argv.length ? `unknown command: ${argv.join(' ')}` : 'no command given');
}

/** Runs one admin command; returns the exit code (0 ok, 1 failure, 2 usage or configuration). */
export async function runAdmin(argv: string[], env: Env, out: Out, err: Out = out): Promise<number> {
  if (argv[0] === 'help' || argv.includes('--help')) {
    out(USAGE);
    return 0;
  }
  let db: Db | undefined;
  try {
    // The same DATA_DIR and generated session secret as the server (invite links it signs must verify).
    prepareDataDir(env);
    const config = loadConfig(env);
    db = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    await migrate(db);
    await dispatch(db, env, argv, out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof CommandError) {
      err(error.message);
      return 1;
    }
    if (error instanceof ConfigError) {
      err(error.message);
      return 2;
    }
    err(`failed: ${describeError(error)}`);
    return 1;
  } finally {
    await db?.close();
  }
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) {
  process.exitCode = await runAdmin(
    process.argv.slice(2),
    process.env,
    (l) => process.stdout.write(`${l}\n`),
    (l) => process.stderr.write(`${l}\n`),
  );
}
