import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Ports and folders shared by playwright.config.ts, the services and the fixtures (read in every worker). */
const here = fileURLToPath(new URL('.', import.meta.url));
export const REPO = join(here, '..');
export const BASE_PORT = Number(process.env.E2E_PORT ?? 18080);
export const APP_PORT = BASE_PORT;
export const SMTP_PORT = BASE_PORT + 1;
export const MEET_PORT = BASE_PORT + 2;
/** A second server with short-lived codes, for account-code-expiry.spec.ts alone. */
export const EXPIRY_PORT = BASE_PORT + 3;
/** A server whose PUBLIC_URL is http://localhost:… (a passkey's relying party is a host name), for account-security.spec.ts. */
export const SECURITY_PORT = BASE_PORT + 4;
export const SECURITY_BASE_URL = `http://localhost:${SECURITY_PORT}`;
export const WORK_DIR = process.env.E2E_WORK_DIR ?? join(REPO, '.tmp', `e2e-${BASE_PORT}`);
export const DATA_DIR = join(WORK_DIR, 'data');
export const MAIL_DIR = join(WORK_DIR, 'mail');
export const BASE_URL = `http://127.0.0.1:${APP_PORT}`;
export const EXPIRY_BASE_URL = `http://127.0.0.1:${EXPIRY_PORT}`;
export const SECURITY_DATA_DIR = join(WORK_DIR, 'data-security');
export const EXPIRY_DATA_DIR = join(WORK_DIR, 'data-expiry');
/** Code lifetime on the expiry server (the default, 600 s, everywhere else). */
export const EXPIRY_CODE_TTL_SECONDS = 30;
export const MEET_DOMAIN = `127.0.0.1:${MEET_PORT}`;
export const JITSI_APP_ID = 'suite-e2e';
export const JITSI_APP_SECRET = 'e2e-jitsi-secret-0123456789abcdef';
