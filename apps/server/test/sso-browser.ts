import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { admin, call, type AccountsWorld } from './accounts-helpers.js';
import { signInAtProvider } from './idp/drive.js';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from './idp/oidc.js';
import { startSamlIdp, type TestSamlIdp } from './idp/saml.js';

/**
 * The browser's side of a single sign-on, as plain HTTP against the app: what the adversarial suites
 * share. `inject` is the suite's own (it may keep every answer for its "never a 500" check).
 */

/** The browser-binding cookie (`suite_sso`) an answer set, as a Cookie header value; '' when none. */
export const bindingOf = (res: LightMyRequestResponse) => {
  const header = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('suite_sso='));
  return String(header ?? '').split(';')[0] ?? '';
};

/** The reason of the SSO error page an answer redirects to (it must redirect there). */
export const errorReason = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(302);
  const target = new URL(String(res.headers.location));
  expect(target.pathname, target.href).toBe('/login-error-sso');
  return target.searchParams.get('reason');
};

/** The hand-off token of the `/auth` page an answer redirects to (on `origin` when given). */
export const handoffIn = (res: LightMyRequestResponse, origin?: string) => {
  expect(res.statusCode, res.body).toBe(302);
  const target = new URL(String(res.headers.location));
  if (origin) expect(`${target.origin}${target.pathname}`, target.href).toBe(`${origin}/auth`);
  else expect(target.pathname, target.href).toBe('/auth');
  return target.searchParams.get('handoff') ?? '';
};

/** The shared OIDC redirect URI of the app the tests start (its PUBLIC_URL); a connection's own adds its id. */
export const SHARED_OIDC_CALLBACK = 'http://localhost:8080/api/sso/oidc/callback';

/**
 * An operator connects `domain` to provider `op` with the admin CLI (`extra`: further options) and
 * registers the connection's own redirect URI at the provider (`redirectUris`, read by it later): that URI.
 */
export async function connectOidc(
  w: AccountsWorld,
  domain: string,
  op: TestOidcProvider,
  redirectUris: string[],
  ...extra: string[]
): Promise<string> {
  await admin(w, ...ssoSetOidc(domain, op), ...extra);
  const { id } = await w.app.db.kysely
    .selectFrom('sso_connections')
    .select('id')
    .where('domain', '=', domain)
    .executeTakeFirstOrThrow();
  const uri = `${SHARED_OIDC_CALLBACK}/${id}`;
  redirectUris.push(uri);
  return uri;
}

/**
 * The identity providers of the adversarial SSO suites: an honest and a hostile OIDC provider connected
 * to honest.test and hostile.test (their redirect URIs in `callbackOf`, the lists the providers read in
 * `uris`), and a SAML IdP whose metadata waits in a file (`idpMetadata`) for the suite's own connection.
 */
export async function startSsoProviders(w: AccountsWorld) {
  const uris = { honest: [] as string[], hostile: [] as string[] };
  const honest = await startOidcProvider(uris.honest);
  const hostile = await startOidcProvider(uris.hostile);
  const idp = await startSamlIdp(
    async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body,
  );
  const callbackOf: Record<string, string> = {
    'honest.test': await connectOidc(w, 'honest.test', honest, uris.honest),
    'hostile.test': await connectOidc(w, 'hostile.test', hostile, uris.hostile),
  };
  const idpMetadata = join(w.t.dataDir, 'idp-metadata.xml');
  writeFileSync(idpMetadata, idp.metadata);
  return {
    honest,
    hostile,
    idp,
    uris,
    callbackOf,
    idpMetadata,
    async stop() {
      await honest.stop();
      await hostile.stop();
      await idp.stop();
    },
  };
}

/** The welcome step of a first SSO sign-in (the terms alone), taken: the full session it answers. */
export async function acceptSsoTerms(w: AccountsWorld, token: string): Promise<string> {
  const done = await call(w.app, {
    method: 'PUT',
    url: '/sso/complete-register',
    token,
    body: { accepted_terms: { version: 1 } },
  });
  expect(done.statusCode, done.body).toBe(200);
  return done.json().token as string;
}

/** `idp`: the suite's SAML identity provider, for samlStart (read when called: the suite starts it later). */
export function ssoBrowser(
  world: () => AccountsWorld,
  inject: (options: InjectOptions) => Promise<LightMyRequestResponse>,
  idp?: () => TestSamlIdp,
) {
  const start = (email: string) => inject({ method: 'GET', url: `/api/sso/start?email=${encodeURIComponent(email)}` });
  /** The provider's redirect back to us, followed with the browser's cookie. */
  const callback = (url: URL, cookie: string) =>
    inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: cookie ? { cookie } : {} });
  return {
    start,
    callback,
    /** A person's whole OIDC round trip in one browser: start, the provider's page, the callback. */
    async oidcRoundTrip(email: string, login = email) {
      const started = await start(email);
      expect(started.statusCode).toBe(302);
      const cookie = bindingOf(started);
      const back = await signInAtProvider(String(started.headers.location), login);
      return { res: await callback(back, cookie), cookie, back };
    },
    /** A SAML sign-in started: the request's id at the provider, the binding cookie and the redirect. */
    async samlStart(email: string) {
      const started = await start(email);
      expect(started.statusCode, started.body).toBe(302);
      const location = String(started.headers.location);
      return { requestId: await idp!().requestIdOf(location), cookie: bindingOf(started), location };
    },
    /** The provider's answer posted to our assertion consumer service, as the browser's form does. */
    samlPost: (samlResponse: string) =>
      inject({
        method: 'POST',
        url: '/api/sso/saml/acs',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
      }),
    /** The `/auth` page's exchange of a hand-off, with this browser's cookie. */
    exchange: (handoff: string, cookie: string, confirm?: boolean) =>
      call(world().app, {
        method: 'POST',
        url: '/auth/handoff',
        body: { handoff, ...(confirm === undefined ? {} : { confirm }) },
        headers: cookie ? { cookie } : {},
      }),
    /** The welcome step of a first sign-in (terms): its answer is a full session. */
    registeredSession: (token: string) => acceptSsoTerms(world(), token),
  };
}
