/**
 * Test-only fixture of the Security panel (never imported by the app): the panel rendered for a signed-in
 * person against a real local server, with the answers a person without a second factor gets.
 */
import type { IncomingMessage } from 'node:http';
import { screen } from '@testing-library/react';
import {
  SECURITY_STATE,
  fakeSessionToken,
  polyfillDialog,
  renderScreen,
  serveApiForTest,
  type Answer,
} from '../../../components/testing';
import { SecurityPanel } from './security-panel';

export const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/Suite:a?secret=JBSWY3DPEHPK3PXP',
  qr_svg: '<svg/>',
};

/**
 * Renders the panel once it offers "Turn on"; `answer` decides per request, and where it answers nothing,
 * the settings are SECURITY_STATE, the app's set-up is SETUP and anything else is 404. Returns the served API.
 */
export async function openSecurityPanel(answer: (req: IncomingMessage, body: string) => Answer | undefined) {
  polyfillDialog();
  localStorage.setItem('authorization', fakeSessionToken());
  const server = await serveApiForTest(
    (req, body) =>
      answer(req, body) ??
      (req.url === '/api/v2/user/security'
        ? { status: 200, body: SECURITY_STATE }
        : req.url === '/api/v2/user/totp/setup'
          ? { status: 200, body: SETUP }
          : { status: 404, body: {} }),
  );
  await renderScreen(<SecurityPanel />, { url: '/app', path: '/app' });
  await screen.findByRole('button', { name: 'Turn on' });
  return server;
}
