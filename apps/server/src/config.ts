import { createPrivateKey, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AUDIT_RETENTION_DAYS, CODE_TTL_MS, MEETING_ACCESS_LEVELS, type MeetingAccess } from '@suite/contract';
import { deriveKeys, type AppKeys } from './keys.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const url = z.url({ protocol: /^https?$/ });
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const opt = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());
/** A variable with its default: the one place both are declared (empty counts as unset). */
const def = <T extends z.ZodTypeAny>(schema: T, value: z.output<T>) =>
  z.preprocess(
    emptyToUndefined,
    schema.optional().transform((v: z.output<T> | undefined) => v ?? value),
  );

/** `a.b.c.d`, an IPv6 address, or either with a `/prefix`. */
function isAddressOrCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** What Fastify's `trustProxy` takes: off, the proxies' addresses, or a test of (address, hop). */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/**
 * N proxy hops: the socket peer and the N-1 entries before it are proxies, so the client is the
 * N-th X-Forwarded-For entry from the right (what Express does with a number; Fastify 5 takes a
 * bare number as "trust nothing", hence the function).
 */
const trustHops = (hops: number): TrustProxy => (hops === 0 ? false : (_address: string, hop: number) => hop < hops);

/**
 * TRUST_PROXY: unset or `false` → X-Forwarded-For ignored; digits → that many proxy hops (the
 * client is the address that many entries from the right); otherwise a comma list of the proxies'
 * addresses/CIDRs. `true` is refused: it would trust the left-most entry, which any client writes.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): TrustProxy {
  const v = value.trim();
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return trustHops(Number(v));
  if (v === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        "'true' would trust the left-most X-Forwarded-For entry, which any client can forge; give the number of proxy hops (e.g. 1) or the proxies' addresses/CIDRs",
    });
    return z.NEVER;
  }
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((s) => !isAddressOrCidr(s));
  if (list.length === 0 || bad.length) {
    ctx.addIssue({
      code: 'custom',
      message: `give a hop count or a comma list of IP addresses/CIDRs (not: ${bad.join(', ') || v})`,
    });
    return z.NEVER;
  }
  return list;
}

/** A bare address (no display name): what SMTP `MAIL FROM` takes. */
const ADDRESS = /^[^\s@<>"]+@[A-Za-z0-9.-]+$/;
/** An address, or `Display Name <address>` (the name quoted or not). */
const MAILBOX = /^(?:[^\s@<>"]+@[A-Za-z0-9.-]+|(?:"[^"]*"|[^<>"@]+)\s*<[^\s@<>"]+@[A-Za-z0-9.-]+>)$/;

const DNS_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * DKIM_PRIVATE_KEY: the PEM itself (`\n` escapes allowed, as in one-line environment files) or the
 * path of a PEM file. Checked at start-up: nodemailer would otherwise send unsigned mail silently.
 */
function readDkimKey(value: string): { pem: string } | { problem: string } {
  let pem = value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : '';
  if (!pem) {
    try {
      pem = readFileSync(value.trim(), 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      return { problem: `DKIM_PRIVATE_KEY: neither a PEM key nor a readable file (${code}: ${value.trim()})` };
    }
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') {
      return { problem: `DKIM_PRIVATE_KEY: must be an RSA key (DKIM rsa-sha256), not ${key.asymmetricKeyType}` };
    }
  } catch {
    return { problem: 'DKIM_PRIVATE_KEY: not a readable PEM private key' };
  }
  return { pem };
}

const DKIM_VARS = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const;

function dkimProblems(env: Env, set: (name: string) => boolean): string[] {
  const given = DKIM_VARS.filter(set);
  if (given.length === 0) return [];
  if (given.length < DKIM_VARS.length) {
    const missing = DKIM_VARS.filter((name) => !set(name));
    return [`${missing.join(', ')}: required with ${given.join(', ')} (DKIM signing needs all three)`];
  }
  const key = readDkimKey(env.DKIM_PRIVATE_KEY ?? '');
  return 'problem' in key ? [key.problem] : [];
}

const EnvSchema = z.object({
  NODE_ENV: def(z.enum(['development', 'test', 'production']), 'development'),
  APP_ENV: opt(z.enum(['development', 'test', 'alpha', 'production'])),
  PORT: def(z.coerce.number().int().min(0).max(65535), 8080),
  HOST: def(z.string(), '0.0.0.0'),
  DATA_DIR: def(z.string(), './data'),
  DATABASE_URL: opt(z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres://')),
  PUBLIC_URL: opt(url),
  MAIN_APP_URL: opt(url),
  SMTP_URL: opt(z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')),
  MAIL_FROM: def(
    z.string().regex(MAILBOX, 'must be an address, optionally with a display name: "Suite" <no-reply@example.com>'),
    'no-reply@localhost',
  ),
  MAIL_REPLY_TO: opt(
    z.string().regex(MAILBOX, 'must be an address, optionally with a display name: "Support" <support@example.com>'),
  ),
  MAIL_ENVELOPE_FROM: opt(z.string().regex(ADDRESS, 'must be a bare address, e.g. bounces@example.com')),
  DKIM_DOMAIN: opt(z.string().regex(DNS_NAME, 'must be a domain name, e.g. example.com')),
  DKIM_SELECTOR: opt(z.string().regex(DNS_NAME, 'must be a DNS label, e.g. mail2026')),
  DKIM_PRIVATE_KEY: opt(z.string()),
  MEET_DOMAIN: opt(z.string().regex(/^[A-Za-z0-9.-]+(:\d+)?$/, 'must be a host name, e.g. meet.example.com')),
  MEET_SCHEME: def(z.enum(['https', 'http']), 'https'),
  JITSI_APP_ID: opt(z.string()),
  JITSI_APP_SECRET: opt(z.string().min(16, 'must be at least 16 characters')),
  JAAS_APP_ID: opt(z.string()),
  JAAS_KID: opt(z.string()),
  JAAS_PRIVATE_KEY: opt(z.string()),
  SESSION_SECRET: opt(z.string().min(32, 'must be at least 32 characters')),
  SESSION_SECRET_PREVIOUS: opt(z.string().min(32, 'must be at least 32 characters')),
  SESSION_TTL_HOURS: def(z.coerce.number().positive(), 12),
  REDIS_URL: opt(z.string().regex(/^rediss?:\/\//)),
  TRUST_PROXY: def(z.string().transform(parseTrustProxy), false),
  MAX_UPLOAD_MB: def(z.coerce.number().positive(), 100),
  STORAGE_QUOTA_MB: def(z.coerce.number().positive(), 1024),
  S3_ENDPOINT: opt(url),
  S3_BUCKET: opt(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 of a-z 0-9 . -)')),
  S3_REGION: opt(z.string()),
  S3_ACCESS_KEY_ID: opt(z.string()),
  S3_SECRET_ACCESS_KEY: opt(z.string()),
  S3_FORCE_PATH_STYLE: def(bool, false),
  APP_TITLE: def(z.string(), 'Suite'),
  CAPTCHA_SITE_KEY: def(z.string(), ''),
  CAPTCHA_SECRET: opt(z.string()),
  CAPTCHA_VERIFY_URL: def(url, 'https://www.google.com/recaptcha/api/siteverify'),
  CAPTCHA_MIN_SCORE: def(z.coerce.number().min(0).max(1), 0.5),
  HIDE_HEADER: def(bool, false),
  HIDE_FOOTER: def(bool, false),
  PUBLIC_SIGNUP: def(bool, true),
  API_DOCS: opt(bool),
  ACCESS_LOG: opt(bool),
  ERROR_REPORTING_DSN: opt(url),
  LOG_LEVEL: opt(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
  WEB_DIST: opt(z.string()),
  RATE_LIMIT_SCALE: def(z.coerce.number().positive(), 1),
  MAIL_RETRY_BASE_MS: def(z.coerce.number().positive(), 2000),
  MAIL_CONCURRENCY: def(z.coerce.number().int().min(1).max(50), 5),
  CODE_TTL_SECONDS: opt(
    z.coerce
      .number()
      .int()
      .positive()
      .max(CODE_TTL_MS / 1000, `at most ${CODE_TTL_MS / 1000} (codes live at most 10 minutes)`),
  ),
  MEETING_IDLE_MINUTES: def(z.coerce.number().positive(), 240),
  /** Who goes straight into a new meeting unless its host chooses (the lobby): open, organisation, restricted. */
  MEETING_DEFAULT_ACCESS: def(z.enum(MEETING_ACCESS_LEVELS), 'organisation'),
  /** The access levels hosts may choose (comma-separated), e.g. "organisation,restricted" to forbid open. */
  MEETING_ACCESS_LEVELS: def(
    z
      .string()
      .transform((v) => [
        ...new Set(
          v
            .split(',')
            .map((l) => l.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.enum(MEETING_ACCESS_LEVELS)).min(1, 'must name at least one level')),
    [...MEETING_ACCESS_LEVELS],
  ),
  SHUTDOWN_GRACE_SECONDS: def(z.coerce.number().min(1).max(600), 10),
  LOG_BUFFER_KB: def(
    z.coerce
      .number()
      .int()
      .min(1)
      .max(1024 * 1024),
    1024,
  ),
  HTTP_HEADERS_TIMEOUT_SECONDS: def(z.coerce.number().positive().max(3600), 65),
  HTTP_REQUEST_TIMEOUT_SECONDS: def(
    z.coerce
      .number()
      .positive()
      .max(24 * 3600),
    900,
  ),
  HTTP_CONNECTION_TIMEOUT_SECONDS: def(
    z.coerce
      .number()
      .positive()
      .max(24 * 3600),
    130,
  ),
  HTTP_KEEP_ALIVE_SECONDS: def(z.coerce.number().positive().max(3600), 75),
  METRICS_TOKEN: opt(z.string().min(16, 'must be at least 16 characters')),
  METRICS_PORT: opt(z.coerce.number().int().min(1).max(65535)),
  METRICS_HOST: def(z.string(), '127.0.0.1'),
  AUDIT_RETENTION_DAYS: def(z.coerce.number().int().min(1).max(3650), AUDIT_RETENTION_DAYS),
  DNS_SERVERS: def(
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every((s) => /^(?:[0-9.]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$|^[0-9A-Fa-f:]+$/.test(s)), {
        message: 'must be IP addresses (host, host:port or [v6]:port), comma-separated',
      }),
    [],
  ),
});

export type Env = Record<string, string | undefined>;

/** An S3-compatible object store for shared files (all of S3_* set); unset: files on disk. */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}
const S3_REQUIRED = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

export interface AppConfig {
  env: 'development' | 'test' | 'production';
  appEnv: 'development' | 'test' | 'alpha' | 'production';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  mainAppUrl: string;
  smtpUrl: string | undefined;
  /** From (MAIL_FROM), Reply-To (MAIL_REPLY_TO) and the SMTP envelope sender for bounces (MAIL_ENVELOPE_FROM). */
  mail: { from: string; replyTo: string | undefined; envelopeFrom: string | undefined };
  /** DKIM signing of every outgoing mail (nodemailer's signer); undefined: unsigned. */
  dkim: { domainName: string; keySelector: string; privateKey: string } | undefined;
  meet: {
    domain: string | undefined;
    scheme: 'https' | 'http';
    jitsi: { appId: string; secret: string } | undefined;
    jaas: { appId: string; kid: string; privateKey: string } | undefined;
    idleMinutes: number;
    /** The access level of a new meeting whose host names none, and the levels hosts may choose. */
    access: { default: MeetingAccess; allowed: readonly MeetingAccess[] };
  };
  sessionSecret: string;
  /** Keys derived from sessionSecret (and SESSION_SECRET_PREVIOUS, still accepted for verification): keys.ts. */
  keys: AppKeys;
  sessionTtlSeconds: number;
  redisUrl: string | undefined;
  /** false: X-Forwarded-For ignored; a hop count (as a function); a list: trusted proxy addresses/CIDRs. */
  trustProxy: TrustProxy;
  maxUploadBytes: number;
  /** Bytes of shared files one user may keep (STORAGE_QUOTA_MB, default 1024). */
  storageQuotaBytes: number;
  /** Object store for shared files; undefined: DATA_DIR/files. */
  s3: S3Settings | undefined;
  appTitle: string;
  captchaSiteKey: string;
  /** Server-side reCAPTCHA check; undefined (no check at all) when CAPTCHA_SITE_KEY is empty. */
  captcha: { secret: string; verifyUrl: string; minScore: number; hostname: string } | undefined;
  hideHeader: boolean;
  hideFooter: boolean;
  publicSignup: boolean;
  /** Serve the OpenAPI viewer and document at /api/docs (API_DOCS; default: on except in production). */
  apiDocs: boolean;
  errorReportingDsn: string | undefined;
  logLevel: string;
  /**
   * One log line per request (ACCESS_LOG; default: on except in production, where the balancer's own
   * access log, which carries the same X-Request-Id, does it for a fraction of the cost).
   */
  accessLog: boolean;
  webDist: string;
  /** Multiplies every rate limit (tests raise it; production leaves it at 1). */
  rateLimitScale: number;
  mailRetryBaseMs: number;
  /** Mails one instance sends at once, each over its own pooled SMTP connection (MAIL_CONCURRENCY). */
  mailConcurrency: number;
  /** Lifetime of an e-mailed code (CODE_TTL_SECONDS; default 10 minutes). Tests shorten it to see a code expire for real. */
  codeTtlMs: number;
  /** SIGTERM: in-flight work gets this long, then the process exits (0) whatever still hangs. */
  shutdownGraceMs: number;
  /** Log lines waiting for a slow stdout reader, at most this many characters; past it lines are dropped (LOG_BUFFER_KB). */
  logBufferChars: number;
  /**
   * Node's HTTP server timeouts, each above nginx's own (docs/deploy.md): the request's headers, the
   * whole request (headers and body), an idle connection, an idle keep-alive connection.
   */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; connectionTimeoutMs: number; keepAliveTimeoutMs: number };
  /** Prometheus /metrics: off unless a token (public port, bearer) or a port of its own is set. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** Resolvers the domain proof asks (DNS_SERVERS); empty: the system's. */
  dnsServers: string[];
  /** Audit events older than this are deleted by the daily purge (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Where the development session secret is kept (DATA_DIR/session-secret). */
const SECRET_FILE = 'session-secret';

/**
 * What the server needs on disk before it reads its configuration, done by the caller at start-up
 * (server.ts, bin/admin.ts): DATA_DIR exists, and without SESSION_SECRET outside production a secret
 * is generated once into DATA_DIR/session-secret (mode 600). Written with 'wx' (fails if the file
 * exists), so two processes starting at once on one DATA_DIR never overwrite each other's. loadConfig
 * itself writes nothing.
 */
export function prepareDataDir(env: Env = process.env): void {
  const dataDir = resolve(EnvSchema.shape.DATA_DIR.parse(env.DATA_DIR));
  mkdirSync(dataDir, { recursive: true });
  if (env.SESSION_SECRET?.trim() || env.NODE_ENV === 'production') return;
  try {
    writeFileSync(join(dataDir, SECRET_FILE), randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * SESSION_SECRET, else the one prepareDataDir keeps in DATA_DIR; a process that did not prepare DATA_DIR
 * (a test, a one-off check of the settings) signs with a secret of its own for its lifetime.
 */
function sessionSecretFor(dataDir: string, given: string | undefined): string {
  if (given) return given;
  try {
    return readFileSync(join(dataDir, SECRET_FILE), 'utf8').trim();
  } catch {
    return randomBytes(48).toString('base64url');
  }
}

/** Rules between variables, read from the raw values so that they are reported with the others. */
function crossFieldProblems(env: Env): string[] {
  const set = (name: string) => Boolean(env[name]?.trim());
  const problems: string[] = [];
  if (set('JITSI_APP_ID') && !set('JITSI_APP_SECRET')) problems.push('JITSI_APP_SECRET: required with JITSI_APP_ID');
  if (set('JAAS_APP_ID') && !(set('JAAS_KID') && set('JAAS_PRIVATE_KEY'))) {
    problems.push('JAAS_KID, JAAS_PRIVATE_KEY: required with JAAS_APP_ID');
  }
  if (set('CAPTCHA_SITE_KEY') && !set('CAPTCHA_SECRET')) {
    problems.push('CAPTCHA_SECRET: required with CAPTCHA_SITE_KEY (the server verifies every captcha token)');
  }
  problems.push(...dkimProblems(env, set));
  if (env.NODE_ENV === 'production' && !set('SESSION_SECRET')) {
    problems.push(
      'SESSION_SECRET: required when NODE_ENV=production (every instance must sign and verify with the same secret; e.g. `openssl rand -base64 48`)',
    );
  }
  const s3Missing = S3_REQUIRED.filter((name) => !set(name));
  if (s3Missing.length && (s3Missing.length < S3_REQUIRED.length || set('S3_FORCE_PATH_STYLE'))) {
    problems.push(`${s3Missing.join(', ')}: required with the other S3_* variables (object storage)`);
  }
  if (env.NODE_ENV === 'production' && set('SMTP_URL') && !set('MAIL_FROM')) {
    problems.push(
      'MAIL_FROM: required with SMTP_URL when NODE_ENV=production (providers refuse or junk no-reply@localhost; e.g. "Suite" <no-reply@suite.example.com>)',
    );
  }
  if (env.NODE_ENV === 'production' && !set('PUBLIC_URL')) {
    problems.push(
      'PUBLIC_URL: required when NODE_ENV=production (the base of every link in mail, e.g. https://suite.example.com)',
    );
  }
  return problems;
}

function dkimConfig(domainName?: string, keySelector?: string, key?: string): AppConfig['dkim'] {
  if (!domainName || !keySelector || !key) return undefined;
  const read = readDkimKey(key);
  return 'pem' in read ? { domainName, keySelector, privateKey: read.pem } : undefined;
}

/**
 * Parses and validates the environment once (each variable's type and default declared once, in
 * EnvSchema); throws ConfigError listing every problem. Reads files (DKIM key, session secret), writes none.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)),
    ...crossFieldProblems(env),
  ];
  if (parsed.success && parsed.data.HTTP_HEADERS_TIMEOUT_SECONDS > parsed.data.HTTP_REQUEST_TIMEOUT_SECONDS) {
    problems.push(
      'HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (the headers are part of the request)',
    );
  }
  if (parsed.success && !parsed.data.MEETING_ACCESS_LEVELS.includes(parsed.data.MEETING_DEFAULT_ACCESS)) {
    problems.push(
      `MEETING_DEFAULT_ACCESS: must be one of MEETING_ACCESS_LEVELS (${parsed.data.MEETING_ACCESS_LEVELS.join(', ')})`,
    );
  }
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const e = parsed.data;

  const port = e.PORT;
  const dataDir = resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const env2 = e.NODE_ENV;
  const sessionSecret = sessionSecretFor(dataDir, e.SESSION_SECRET);
  return {
    env: env2,
    appEnv: e.APP_ENV ?? env2,
    port,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    mainAppUrl: (e.MAIN_APP_URL ?? `${publicUrl}/app`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mail: { from: e.MAIL_FROM, replyTo: e.MAIL_REPLY_TO, envelopeFrom: e.MAIL_ENVELOPE_FROM },
    dkim: dkimConfig(e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY),
    meet: {
      domain: e.MEET_DOMAIN,
      scheme: e.MEET_SCHEME,
      jitsi: e.JITSI_APP_ID && e.JITSI_APP_SECRET ? { appId: e.JITSI_APP_ID, secret: e.JITSI_APP_SECRET } : undefined,
      jaas:
        e.JAAS_APP_ID && e.JAAS_KID && e.JAAS_PRIVATE_KEY
          ? { appId: e.JAAS_APP_ID, kid: e.JAAS_KID, privateKey: e.JAAS_PRIVATE_KEY.replace(/\\n/g, '\n') }
          : undefined,
      idleMinutes: e.MEETING_IDLE_MINUTES,
      access: { default: e.MEETING_DEFAULT_ACCESS, allowed: e.MEETING_ACCESS_LEVELS },
    },
    sessionSecret,
    keys: deriveKeys(sessionSecret, e.SESSION_SECRET_PREVIOUS),
    sessionTtlSeconds: Math.round(e.SESSION_TTL_HOURS * 3600),
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    maxUploadBytes: Math.round(e.MAX_UPLOAD_MB * 1024 * 1024),
    storageQuotaBytes: Math.round(e.STORAGE_QUOTA_MB * 1024 * 1024),
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    appTitle: e.APP_TITLE,
    captchaSiteKey: e.CAPTCHA_SITE_KEY,
    captcha:
      e.CAPTCHA_SITE_KEY && e.CAPTCHA_SECRET
        ? {
            secret: e.CAPTCHA_SECRET,
            verifyUrl: e.CAPTCHA_VERIFY_URL,
            minScore: e.CAPTCHA_MIN_SCORE,
            // The site the token was solved on must be ours (a token farmed on another site is refused).
            hostname: new URL(publicUrl).hostname,
          }
        : undefined,
    hideHeader: e.HIDE_HEADER,
    hideFooter: e.HIDE_FOOTER,
    publicSignup: e.PUBLIC_SIGNUP,
    apiDocs: e.API_DOCS ?? env2 !== 'production',
    errorReportingDsn: e.ERROR_REPORTING_DSN,
    logLevel: e.LOG_LEVEL ?? (env2 === 'test' ? 'silent' : 'info'),
    accessLog: e.ACCESS_LOG ?? env2 !== 'production',
    webDist: resolve(e.WEB_DIST ?? join(serverRoot(), '../web/dist')),
    rateLimitScale: e.RATE_LIMIT_SCALE,
    mailRetryBaseMs: e.MAIL_RETRY_BASE_MS,
    mailConcurrency: e.MAIL_CONCURRENCY,
    codeTtlMs: e.CODE_TTL_SECONDS === undefined ? CODE_TTL_MS : e.CODE_TTL_SECONDS * 1000,
    shutdownGraceMs: Math.round(e.SHUTDOWN_GRACE_SECONDS * 1000),
    logBufferChars: e.LOG_BUFFER_KB * 1024,
    http: {
      headersTimeoutMs: Math.round(e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000),
      requestTimeoutMs: Math.round(e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000),
      connectionTimeoutMs: Math.round(e.HTTP_CONNECTION_TIMEOUT_SECONDS * 1000),
      keepAliveTimeoutMs: Math.round(e.HTTP_KEEP_ALIVE_SECONDS * 1000),
    },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    dnsServers: e.DNS_SERVERS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
  };
}

/** apps/server, whether running from src (tsx, vitest) or from the compiled dist/src. */
export function serverRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.includes(`${'/'}dist${'/'}`) || here.endsWith('/dist/src') ? resolve(here, '../..') : resolve(here, '..');
}
