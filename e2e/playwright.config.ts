import { defineConfig, devices } from '@playwright/test';
import { APP_PORT, BASE_URL, DATA_DIR, JITSI_APP_ID, JITSI_APP_SECRET, MEET_DOMAIN, REPO, SMTP_PORT, WORK_DIR } from './env';

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
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: `node ${REPO}/e2e/fixtures/services.mjs`,
      url: `http://${MEET_DOMAIN}/health`,
      reuseExistingServer: false,
      stdout: 'pipe',
      timeout: 30_000,
    },
    {
      command: `node ${REPO}/apps/server/dist/src/server.js`,
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NODE_ENV: 'production',
        APP_ENV: 'test',
        PORT: String(APP_PORT),
        HOST: '127.0.0.1',
        DATA_DIR,
        PUBLIC_URL: BASE_URL,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: 'no-reply@suite.test',
        MEET_DOMAIN,
        MEET_SCHEME: 'http',
        JITSI_APP_ID,
        JITSI_APP_SECRET,
        SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123',
        RATE_LIMIT_SCALE: '100',
        MAIL_RETRY_BASE_MS: '200',
        // Codes live 30 s here, so that account-code-expiry.spec.ts sees one expire for real.
        CODE_TTL_SECONDS: '30',
        LOG_LEVEL: 'warn',
        APP_TITLE: 'Suite',
      },
    },
  ],
});
