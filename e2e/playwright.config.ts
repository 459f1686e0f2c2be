import { defineConfig, devices } from '@playwright/test';
import { testCa } from '../apps/server/test/idp/ca';
import {
  APP_PORT,
  BASE_URL,
  DATA_DIR,
  EXPIRY_BASE_URL,
  EXPIRY_CODE_TTL_SECONDS,
  EXPIRY_DATA_DIR,
  EXPIRY_PORT,
  JITSI_APP_ID,
  JITSI_APP_SECRET,
  MEET_DOMAIN,
  REPO,
  SECURITY_BASE_URL,
  SECURITY_DATA_DIR,
  SECURITY_PORT,
  SMTP_PORT,
  WORK_DIR,
} from './env';

const EXPIRY_SPEC = /account-code-expiry\.spec\.ts$/;
const SECURITY_SPEC = /account-security\.spec\.ts$/;

/** The built server on `port` with its own data folder, delivering to the loopback SMTP server. */
function appServer(port: number, dataDir: string, env: Record<string, string> = {}) {
  const publicUrl = env.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
  return {
    command: `node ${REPO}/apps/server/dist/src/server.js`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      NODE_ENV: 'production',
      APP_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: publicUrl,
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      MAIL_FROM: 'no-reply@suite.test',
      MEET_DOMAIN,
      MEET_SCHEME: 'http',
      JITSI_APP_ID,
      JITSI_APP_SECRET,
      SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123',
      RATE_LIMIT_SCALE: '100',
      MAIL_RETRY_BASE_MS: '200',
      LOG_LEVEL: 'warn',
      APP_TITLE: 'Suite',
      // The test identity providers (account-sso.spec.ts) serve HTTPS under a throwaway CA, trusted as an
      // operator trusts a company CA.
      NODE_EXTRA_CA_CERTS: testCa().caFile,
      ...env,
    },
  };
}

/** E2E against the built server, a real SMTP server on loopback and the Jitsi stand-in, in Debian's Chromium. */
export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: `${WORK_DIR}/results.json` }]],
  outputDir: `${WORK_DIR}/test-results`,
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: [EXPIRY_SPEC, SECURITY_SPEC],
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    {
      name: 'code-expiry',
      testMatch: EXPIRY_SPEC,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: EXPIRY_BASE_URL },
    },
    {
      name: 'security',
      testMatch: SECURITY_SPEC,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: SECURITY_BASE_URL },
    },
  ],
  webServer: [
    {
      command: `node ${REPO}/e2e/fixtures/services.mjs`,
      url: `http://${MEET_DOMAIN}/health`,
      reuseExistingServer: false,
      stdout: 'pipe',
      timeout: 30_000,
    },
    appServer(APP_PORT, DATA_DIR),
    // Codes live EXPIRY_CODE_TTL_SECONDS here, so that account-code-expiry.spec.ts sees one expire for real;
    // every other test runs against the default lifetime.
    appServer(EXPIRY_PORT, EXPIRY_DATA_DIR, { CODE_TTL_SECONDS: String(EXPIRY_CODE_TTL_SECONDS) }),
    // Passkeys need a host name as relying-party ID (WebAuthn refuses an IP address): this one is
    // http://localhost:…, which browsers treat as a secure context as they do HTTPS.
    appServer(SECURITY_PORT, SECURITY_DATA_DIR, { PUBLIC_URL: SECURITY_BASE_URL }),
  ],
});
