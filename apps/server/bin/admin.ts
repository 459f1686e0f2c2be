import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LANGUAGES, isEmailShape, normalizeEmail, type Language } from '@suite/contract';
import { ConfigError, loadConfig, prepareDataDir, type Env } from '../src/config.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { createHash, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { API, API_PREFIX } from '@suite/contract';
import {
  accountsAdmin,
  parseIdpMetadata,
  type DomainChange,
  type DomainRules,
  type SsoConnection,
} from '../src/modules/accounts/index.js';
import { outboxRepository } from '../src/plugins/outbox-repository.js';
import { adminCli } from '../src/modules/admin/index.js';

const USAGE = `Usage: npm run admin -- <command>

  domain set <domain> [--active | --inactive] [--mail-server-hosted | --not-mail-server-hosted]
                      [--sso-only | --password-login] [--free-limit N | --no-free-limit]
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
                                 [--hosted-domain <Google Workspace domain>]
  sso set <domain> --saml --metadata <file path or https URL>   the IdP's metadata XML
  sso show <domain>            the connection (never the client secret) and the addresses to give the IdP
  sso use-own-redirect-uri <domain>   after registering the connection's own redirect URI at the provider:
                                 stop answering this connection on the old shared one
  sso remove <domain>
  mail failed [--limit N]                      mails given up (SMTP 5xx, expired, 72 h), newest first

Uses the same settings as the server (DATA_DIR or DATABASE_URL, PUBLIC_URL, ...).`;

type Out = (line: string) => void;

class UsageError extends Error {}

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
  `${d.ssoOnly ? 'SSO only' : 'password login'}, free limit ${d.freePlanLimit ?? 'none'}`;

function pick(flags: Record<string, boolean | string | undefined>, on: string, off: string): boolean | undefined {
  if (flags[on] && flags[off]) throw new UsageError(`--${on} and --${off} contradict each other`);
  return flags[on] ? true : flags[off] ? false : undefined;
}

async function domainSet(db: Db, args: string[], out: Out): Promise<void> {
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
  if (Object.keys(change).length === 0) throw new UsageError('nothing to set');
  out(describe(await accountsAdmin(db.kysely).setDomain(domainArg(positionals[0]), change)));
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

/** The IdP's metadata: a file, or an https URL fetched once (10 s). */
async function metadataXml(source: string): Promise<string> {
  if (/^https:\/\//.test(source)) {
    const res = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new UsageError(`metadata: ${source} answered ${res.status}`);
    return res.text();
  }
  if (/^http:\/\//.test(source))
    throw new UsageError('metadata: an http:// URL could be altered on the way; use https:// or a file');
  return readFile(source, 'utf8').catch(() => {
    throw new UsageError(`metadata: cannot read ${source}`);
  });
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
    },
  });
  const domain = domainArg(positionals[0]);
  const config = loadConfig(env);
  const connections = accountsAdmin(db.kysely).ssoConnections(config.keys.sso);
  if (values.oidc === values.saml) throw new UsageError('say --oidc or --saml');
  if (values.oidc) {
    const issuer = values.issuer ?? '';
    if (!/^https:\/\/[^\s]+$/.test(issuer)) throw new UsageError("--issuer must be the provider's https:// issuer URL");
    if (!values['client-id']) throw new UsageError('--client-id is required');
    if (!values['client-secret']) throw new UsageError('--client-secret is required');
    const scopes = (values.scopes ?? 'openid email profile').trim().replace(/\s+/g, ' ');
    if (!scopes.split(' ').includes('openid') || !scopes.split(' ').includes('email')) {
      throw new UsageError('--scopes must include openid and email');
    }
    await connections.set(domain, {
      protocol: 'oidc',
      settings: {
        issuer: issuer.replace(/\/+$/, ''),
        clientId: values['client-id'],
        scopes,
        ...(values['hosted-domain'] ? { hostedDomain: domainArg(values['hosted-domain']) } : {}),
      },
      clientSecret: values['client-secret'],
    });
  } else {
    if (!values.metadata) throw new UsageError('--metadata <file or https URL> is required');
    let settings;
    try {
      settings = parseIdpMetadata(await metadataXml(values.metadata));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`metadata: ${(error as Error).message}`);
    }
    await connections.set(domain, { protocol: 'saml', settings });
  }
  await ssoShow(db, env, [domain], out);
}

function describeConnection(c: SsoConnection, publicUrl: string): string[] {
  const api = `${publicUrl}${API_PREFIX}`;
  if (c.protocol === 'oidc') {
    return [
      `${c.domain}: OpenID Connect`,
      `  issuer: ${c.settings.issuer}`,
      `  client id: ${c.settings.clientId}`,
      '  client secret: set (stored encrypted, never shown)',
      `  scopes: ${c.settings.scopes}`,
      ...(c.settings.hostedDomain ? [`  Google hosted domain (hd): ${c.settings.hostedDomain}`] : []),
      `  redirect URI to register at the provider: ${api}${API.ssoOidcCallback}/${c.id}`,
      ...(c.sharedCallback
        ? [
            `  still answered on the old shared redirect URI ${api}${API.ssoOidcCallback}: register the one above,`,
            `  then run: sso use-own-redirect-uri ${c.domain}`,
          ]
        : []),
    ];
  }
  const certificates = c.settings.certificates.map((body) => {
    const der = Buffer.from(body, 'base64');
    let until = 'unreadable certificate';
    try {
      until = `valid until ${new Date(new X509Certificate(der).validTo).toISOString()}`;
    } catch {
      // shown as unreadable
    }
    return `  signing certificate: SHA-256 ${createHash('sha256').update(der).digest('hex')} (${until})`;
  });
  return [
    `${c.domain}: SAML 2.0`,
    `  IdP entity ID: ${c.settings.entityId}`,
    `  IdP sign-on URL: ${c.settings.ssoUrl}`,
    ...certificates,
    `  our entity ID and metadata: ${api}${API.ssoSamlMetadata}`,
    `  our assertion consumer service (HTTP-POST): ${api}${API.ssoSamlAcs}`,
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
  if (group === 'domain' && action === 'set') return domainSet(db, rest, out);
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
    if (!(await accountsAdmin(db.kysely).ssoConnections(config.keys.sso).remove(domain))) {
      throw new UsageError(`no single-sign-on connection for ${domain}`);
    }
    return out(`${domain}: single-sign-on connection removed`);
  }
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
    if (error instanceof ConfigError) {
      err(error.message);
      return 2;
    }
    err(`failed: ${error instanceof Error ? error.message : String(error)}`);
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
