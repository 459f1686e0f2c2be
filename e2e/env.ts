import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Ports and folders shared by playwright.config.ts, the services and the fixtures (read in every worker). */
const here = fileURLToPath(new URL('.', import.meta.url));
export const REPO = join(here, '..');
const BASE_PORT = Number(process.env.E2E_PORT ?? 18080);
export const APP_PORT = BASE_PORT;
const SMTP_PORT = BASE_PORT + 1;
const MEET_PORT = BASE_PORT + 2;
/** A second server with short-lived codes, for account-code-expiry.spec.ts alone. */
export const EXPIRY_PORT = BASE_PORT + 3;
/** A server whose PUBLIC_URL is http://localhost:… (a passkey's relying party is a host name), for account-security.spec.ts. */
export const SECURITY_PORT = BASE_PORT + 4;
export const SECURITY_BASE_URL = `http://localhost:${SECURITY_PORT}`;
/**
 * nginx in front of two instances on PostgreSQL and Redis, started by cluster-sign-in.spec.ts itself
 * (fixtures/cluster.ts); http://localhost:… like the security server, for passkeys.
 */
export const CLUSTER_PORT = BASE_PORT + 5;
export const CLUSTER_BASE_URL = `http://localhost:${CLUSTER_PORT}`;
/**
 * A DNS server on loopback (fixtures/services.mjs, UDP and TCP) answering from the zone the tests write
 * (fixtures/dns.ts), so that proving a domain by its TXT record runs against a real resolver exchange.
 */
const DNS_PORT = BASE_PORT + 6;
export const WORK_DIR = process.env.E2E_WORK_DIR ?? join(REPO, '.tmp', `e2e-${BASE_PORT}`);
export const DATA_DIR = join(WORK_DIR, 'data');
export const MAIL_DIR = join(WORK_DIR, 'mail');
export const DNS_ZONE_DIR = join(WORK_DIR, 'dns-zone');
export const BASE_URL = `http://127.0.0.1:${APP_PORT}`;
export const EXPIRY_BASE_URL = `http://127.0.0.1:${EXPIRY_PORT}`;
export const SECURITY_DATA_DIR = join(WORK_DIR, 'data-security');
export const CLUSTER_DIR = join(WORK_DIR, 'cluster');
export const EXPIRY_DATA_DIR = join(WORK_DIR, 'data-expiry');
/**
 * Code lifetime on the expiry server (the default, 600 s, everywhere else). Each expiry test waits it out
 * in real time, so it is short; it still leaves the new code that replaces an expired one time to arrive by
 * mail and be typed on a loaded machine (a few seconds there).
 */
export const EXPIRY_CODE_TTL_SECONDS = 10;
export const MEET_DOMAIN = `127.0.0.1:${MEET_PORT}`;
export const JITSI_APP_ID = 'suite-e2e';
export const JITSI_APP_SECRET = 'e2e-jitsi-secret-0123456789abcdef';

/** The SESSION_SECRET of every e2e server (the admin CLI signs invites the servers check). */
export const SESSION_SECRET = 'e2e-session-secret-0123456789abcdef0123';

/**
 * The settings of an e2e server: the built server in production mode on `port`, delivering to the loopback
 * SMTP server, meetings on the Jitsi stand-in; `extra` adds or overrides (PUBLIC_URL, DATABASE_URL…).
 */
export function serverEnv(port: number, dataDir: string, caFile: string, extra: Record<string, string> = {}) {
  return {
    NODE_ENV: 'production',
    APP_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    MAIL_FROM: 'no-reply@suite.test',
    MEET_DOMAIN,
    MEET_SCHEME: 'http',
    JITSI_APP_ID,
    JITSI_APP_SECRET,
    // The meeting specs test the spec's flow (anyone with the link once the host is there);
    // meeting-lobby.spec.ts creates its meetings with the level it tests.
    MEETING_DEFAULT_ACCESS: 'open',
    SESSION_SECRET,
    RATE_LIMIT_SCALE: '100',
    MAIL_RETRY_BASE_MS: '200',
    LOG_LEVEL: 'warn',
    APP_TITLE: 'Suite',
    // The test identity providers (account-sso.spec.ts) serve HTTPS under a throwaway CA, trusted as an
    // operator trusts a company CA.
    NODE_EXTRA_CA_CERTS: caFile,
    DNS_SERVERS: `127.0.0.1:${DNS_PORT}`,
    ...extra,
  };
}
