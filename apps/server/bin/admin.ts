import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LANGUAGES, isEmailShape, normalizeEmail, type Language } from '@suite/contract';
import { ConfigError, loadConfig, type Env } from '../src/config.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { accountsAdmin, type DomainChange, type DomainRules } from '../src/modules/accounts/index.js';

const USAGE = `Usage: npm run admin -- <command>

  domain set <domain> [--active | --inactive] [--mail-server-hosted | --not-mail-server-hosted]
                      [--sso-only | --password-login] [--free-limit N | --no-free-limit]
  domain list
  users list [--domain <domain>]
  users activate <email> | users deactivate <email>
  invite <email> [--language en|pt|es|hi|it]   queue an invitation mail (also for personal addresses)

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
    inviterName: config.appTitle,
    language,
  });
  out(`invitation queued (the running server mails it): ${url}`);
}

async function dispatch(db: Db, env: Env, argv: string[], out: Out): Promise<void> {
  const [group, action, ...rest] = argv;
  if (group === 'domain' && action === 'set') return domainSet(db, rest, out);
  if (group === 'domain' && action === 'list')
    return void (await accountsAdmin(db.kysely).listDomains()).forEach((d) => out(describe(d)));
  if (group === 'users' && action === 'list') return usersList(db, rest, out);
  if (group === 'users' && (action === 'activate' || action === 'deactivate')) {
    return setActive(db, emailArg(rest[0]), action === 'activate', out);
  }
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
