/**
 * Test-only helpers (never imported by the app): render a screen inside the app's providers and a
 * the page's own history (wouter's browser location), and serve HTTP answers from a real local server so that api-client runs unchanged.
 */
import { Suspense, type ReactElement } from 'react';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { expect, onTestFinished } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { parse } from 'regexparam';
import type { PublicConfig } from '@suite/contract/core';
import { ConfigProvider, FALLBACK_CONFIG } from '../lib/config';
import { initI18n } from '../lib/i18n';
import { markAppEntry } from '../lib/navigation';
import { DialogProvider } from './confirm-dialog';

let i18nReady: Promise<unknown> | null = null;

/** What a test reads of the page's address, and moves it with (as the app's own navigations do). */
export interface TestRouter {
  readonly state: { readonly location: { readonly pathname: string; readonly search: string } };
  navigate(to: string): void;
}

export async function renderScreen(
  element: ReactElement,
  /** `history`: the app's pages before `url` (the first of them is the first page of the visit). */
  options: { url: string; path?: string; config?: Partial<PublicConfig>; history?: string[] },
): Promise<TestRouter> {
  i18nReady ??= initI18n('en');
  await i18nReady;
  // The page's own history (happy-dom's): the first entry as a visit's first page, the rest as the app's.
  const [first, ...later] = [...(options.history ?? []), options.url];
  window.history.pushState(null, '', first);
  for (const url of later) markAppEntry(navigate, url);
  render(
    <ConfigProvider config={{ ...FALLBACK_CONFIG, ...options.config }}>
      <Suspense fallback={null}>
        <DialogProvider>
          <Router parser={parse} aroundNav={markAppEntry}>
            <Switch>
              <Route path={options.path ?? '/user/:componentUrl'}>{element}</Route>
              <Route>
                <p>elsewhere</p>
              </Route>
            </Switch>
          </Router>
        </DialogProvider>
      </Suspense>
    </ConfigProvider>,
  );
  return {
    state: {
      location: {
        get pathname() {
          return window.location.pathname;
        },
        get search() {
          return window.location.search;
        },
      },
    },
    navigate: (to) => markAppEntry(navigate, to),
  };
}

export interface Answer {
  status: number;
  body?: unknown;
  /** Never answer (to see the client's timeout). */
  hang?: boolean;
}

/** A real HTTP server on loopback; the page's origin is pointed at it. `answer` decides per request. */
export async function serveApi(answer: (request: IncomingMessage, body: string) => Answer) {
  const requests: { method: string; url: string; body: string; authorization: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body, authorization: req.headers.authorization });
      const reply = answer(req, body);
      if (reply.hang) return;
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${origin}/`);
  return {
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `serveApi` for the running test: closed when it ends. */
export async function serveApiForTest(answer: (request: IncomingMessage, body: string) => Answer) {
  const server = await serveApi(answer);
  onTestFinished(() => server.close());
  return server;
}

/** GET /v2/user/security of a person with a password and no second factor yet. */
export const SECURITY_STATE = {
  passkeys: [],
  totp: false,
  recovery_codes_left: 0,
  totp_available: true,
  has_password: true,
  reauth: ['password'],
};

/** happy-dom lacks the modal API of <dialog>: opening and closing set the `open` attribute, as a browser does. */
export function polyfillDialog(): void {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}

/** A JWT-shaped session token the client can decode (the server verifies on use). */
export function fakeSessionToken(
  user = { _id: 'u1', email: 'ada@contoso.com', preferences: {}, profile_id: 'p1' },
  claims: Record<string, unknown> = {},
): string {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ user, exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.c2ln`;
}

/** `serveApi` with one fixed answer, recording where the page's progress bar stood as each call arrived. */
async function serveWithProgress(answer: Answer | ((request: IncomingMessage) => Answer)) {
  const progressAtCall: (string | null)[] = [];
  const server = await serveApi((request) => {
    progressAtCall.push(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') ?? null);
    return typeof answer === 'function' ? answer(request) : answer;
  });
  return { server, progressAtCall };
}

/**
 * Renders `element` (as renderScreen) against `answer` served by serveWithProgress, closed when the test
 * ends (one answer for every call, or one per request); returns the router, where the progress bar stood
 * at each call, and the calls.
 */
export async function renderServed(
  element: ReactElement,
  options: Parameters<typeof renderScreen>[1],
  answer: Answer | ((request: IncomingMessage) => Answer),
) {
  const { server, progressAtCall } = await serveWithProgress(answer);
  onTestFinished(() => server.close());
  const router = await renderScreen(element, options);
  return { router, progressAtCall, requests: server.requests };
}

/** Submits `form` twice in one batch and once more: a form that guards double submits sends one request. */
export async function expectOneRequestForRepeatedSubmits(form: HTMLElement, requests: unknown[]): Promise<void> {
  act(() => {
    fireEvent.submit(form);
    fireEvent.submit(form);
  });
  fireEvent.submit(form);
  // The single-sign-on discovery of a typed address is a look-up, not a submit.
  const submits = () => requests.filter((r) => !(r as { url?: string }).url?.includes('/sso/discover'));
  await waitFor(() => expect(submits()).toHaveLength(1));
  await new Promise((r) => setTimeout(r, 100));
  expect(submits()).toHaveLength(1);
}

/**
 * A text matcher for a sentence drawn in pieces (a domain or an address in its own span, components/
 * address.tsx): matches the innermost element whose whole text is `text` (or matches it).
 */
export function sentence(text: string | RegExp) {
  const fits = (content: string | null) =>
    content !== null && (typeof text === 'string' ? content === text : text.test(content));
  return (_: string, element: Element | null) =>
    element !== null && fits(element.textContent) && ![...element.children].some((child) => fits(child.textContent));
}
