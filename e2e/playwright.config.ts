import { existsSync } from 'node:fs';
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
  CLUSTER_BASE_URL,
  MEET_DOMAIN,
  REPO,
  SECURITY_BASE_URL,
  SECURITY_DATA_DIR,
  SECURITY_PORT,
  WORK_DIR,
  serverEnv,
} from './env';

const EXPIRY_SPEC = /account-code-expiry\.spec\.ts$/;
const SECURITY_SPEC = /account-security\.spec\.ts$/;
const CLUSTER_SPEC = /cluster-.*\.spec\.ts$/;

/** The built server on `port` with its own data folder, delivering to the loopback SMTP server. */
function appServer(port: number, dataDir: string, env: Record<string, string> = {}) {
  return {
    command: `node ${REPO}/apps/server/dist/src/server.js`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: serverEnv(port, dataDir, testCa().caFile, env),
  };
}

/**
 * Chromium's fake camera and microphone, the camera at 5 frames a second (E2E_FAKE_VIDEO_FPS; Chromium's
 * own default is 30): drawing and showing 30 frames a second took a fifth of the browsers' CPU in the
 * pre-join and room-controls specs (161 against 126 CPU s), and no test looks at the frame rate.
 */
const FAKE_MEDIA = `--use-fake-device-for-media-stream=fps=${Number(process.env.E2E_FAKE_VIDEO_FPS ?? 5)}`;

/**
 * The browser: Debian's chromium-headless-shell (Chromium's old headless mode, no browser UI or compositor of
 * the full browser), which took a fifth less CPU than /usr/bin/chromium over the same specs (124 against
 * 152 CPU s on login, sign-up, pre-join, lobby, UI rules and the admin console) with every test passing:
 * passkeys (CDP virtual authenticator), the fake camera and microphone, popups, the clock and paint timings
 * all work there. The screenshot pass (E2E_SCREENSHOTS=1) keeps the full browser, whose rendering is what a
 * person sees; CHROMIUM_PATH overrides both, and the full browser stands in when the shell is not installed.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const FULL_CHROMIUM = '/usr/bin/chromium';
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  (process.env.E2E_SCREENSHOTS !== '1' && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);

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
    // A failed test keeps its trace (actions, DOM snapshots, network, console) and its screenshot, but the
    // trace films no screencast: Chromium encoding a frame of every paint, for every test, passed or not,
    // cost more CPU than the DOM snapshots that already show each step.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        FAKE_MEDIA,
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: [EXPIRY_SPEC, SECURITY_SPEC, CLUSTER_SPEC],
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
    {
      name: 'cluster',
      testMatch: CLUSTER_SPEC,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: CLUSTER_BASE_URL },
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
    // (cluster-sign-in.spec.ts starts its own two instances, behind nginx on CLUSTER_BASE_URL.)
  ],
});
