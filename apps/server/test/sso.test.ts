import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsWorld,
  PASSWORD,
  admin,
  call,
  decodeSession,
  expectError,
  registered,
  useWorld,
} from './accounts-helpers.js';
import { signInAtProvider } from './idp/drive.js';
import { startOidcProvider, type TestOidcProvider } from './idp/oidc.js';
import { startSamlIdp, type TestSamlIdp } from './idp/saml.js';
import { acceptSsoTerms, bindingOf, connectOidc, errorReason, handoffIn } from './sso-browser.js';

/** Single sign-on against real identity providers: panva's oidc-provider and a samlify IdP. */
describe('single sign-on per domain', () => {
  const w = useWorld({ METRICS_TOKEN: 'metrics-token-0123456789' });
  let op: TestOidcProvider;
  let idp: TestSamlIdp;
  /** The OIDC connection's own redirect URI (its id last), registered at the provider. */
  let ownCallback = '';
  const answers: LightMyRequestResponse[] = [];

  const inject = async (options: Parameters<AccountsWorld['app']['inject']>[0]) => {
    const res = await w.app.inject(options);
    answers.push(res);
    return res;
  };
  /** The binding cookie of the last sign-in this "browser" started: the /auth page's exchange sends it. */
  let browserBinding = '';
  const start = async (email: string) => {
    const res = await inject({ method: 'GET', url: `/api/sso/start?email=${encodeURIComponent(email)}` });
    browserBinding = bindingOf(res);
    return res;
  };
  const callback = (url: URL, cookie: string) =>
    inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: cookie ? { cookie } : {} });
  const handoffOf = (res: LightMyRequestResponse) => handoffIn(res, 'http://localhost:8080');
  const exchange = (handoff: string) =>
    call(w.app, { method: 'POST', url: '/auth/handoff', body: { handoff }, headers: { cookie: browserBinding } });

  /** The whole OIDC round trip for `login` at the provider; answers our callback's response. */
  async function oidcSignIn(email: string, login = email) {
    const started = await start(email);
    expect(started.statusCode).toBe(302);
    const back = await signInAtProvider(String(started.headers.location), login);
    return callback(back, bindingOf(started));
  }

  async function samlPost(samlResponse: string) {
    return inject({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    });
  }
  async function samlRequest(email: string) {
    const started = await start(email);
    expect(started.statusCode).toBe(302);
    expect(String(started.headers.location).startsWith(`${idp.url}/sso?`)).toBe(true);
    return idp.requestIdOf(String(started.headers.location));
  }

  beforeAll(async () => {
    const redirectUris: string[] = [];
    op = await startOidcProvider(redirectUris);
    idp = await startSamlIdp(async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body);
    ownCallback = await connectOidc(w, 'oidc.test', op, redirectUris);
    const file = join(w.t.dataDir, 'idp-metadata.xml');
    writeFileSync(file, idp.metadata);
    await admin(w, 'sso', 'set', 'saml.test', '--saml', '--metadata', file);
    await admin(w, 'domain', 'set', 'saml.test', '--sso-only');
  });
  afterAll(async () => {
    await op?.stop();
    await idp?.stop();
  });

  it('the admin CLI shows a connection without its secret, with the addresses to give the provider', async () => {
    const shown = await admin(w, 'sso', 'show', 'oidc.test');
    expect(shown).toContain(`issuer: ${op.issuer}`);
    expect(shown).toContain(`redirect URI to register at the provider: ${ownCallback}`);
    expect(shown).not.toContain(op.clientSecret);
    const stored = await w.app.db.kysely
      .selectFrom('sso_connections')
      .selectAll()
      .where('domain', '=', 'oidc.test')
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(op.clientSecret);
    const saml = await admin(w, 'sso', 'show', 'saml.test');
    expect(saml).toContain(`IdP entity ID: ${idp.entityId}`);
    expect(saml).toContain('our assertion consumer service (HTTP-POST): http://localhost:8080/api/sso/saml/acs');
    expect(saml).toMatch(/signing certificate: SHA-256 [0-9a-f]{64}/);
    expect(saml).toContain('password login: refused');
  });

  it('discovers single sign-on from the address only, never from the account', async () => {
    const discover = async (email: string) =>
      (await call(w.app, { method: 'POST', url: '/sso/discover', body: { email } })).json().sso;
    expect(await discover('nobody@oidc.test')).toBe('available');
    expect(await discover('nobody@saml.test')).toBe('required');
    expect(await discover('someone@plain.test')).toBe('none');
    expect(await discover('not an address')).toBe('none');
  });

  it('OpenID Connect: first sign-in creates the account (terms step next), a later one signs straight in', async () => {
    const handoff = handoffOf(await oidcSignIn('ada@oidc.test'));
    const first = await exchange(handoff);
    expect(first.statusCode, first.body).toBe(200);
    const token = first.json().token as string;
    expect(first.json().profiles[0].info).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@oidc.test',
    });
    // The hand-off is single use.
    expectError(await exchange(handoff), 401, 'ERR_HANDOFF_INVALID');
    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token });
    expect(me.json()).toMatchObject({ confirmed: true, registered: false });
    // The first sign-in's session opens the welcome step alone.
    for (const url of ['/v2/user/sessions', '/files', '/invite/url']) {
      expectError(await call(w.app, { method: 'GET', url, token }), 403, 'ERR_REGISTRATION_INCOMPLETE');
    }
    // The welcome step of an SSO account is the terms alone, and it needs them.
    expectError(
      await call(w.app, { method: 'PUT', url: '/sso/complete-register', token, body: {} }),
      400,
      'ACCEPT_TERMS',
    );
    // Its answer is a full session, labelled with the method, and the welcome one is over.
    const full = await acceptSsoTerms(w, token);
    const sessions = await call(w.app, { method: 'GET', url: '/v2/user/sessions', token: full });
    expect(sessions.json().data.map((s: { method: string }) => s.method)).toEqual(['sso']);
    expect((await call(w.app, { method: 'GET', url: '/files', token: full })).statusCode).toBe(200);
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    const again = await exchange(handoffOf(await oidcSignIn('ada@oidc.test')));
    expect(again.statusCode).toBe(200);
    expect(
      (await call(w.app, { method: 'GET', url: '/v2/user/me', token: again.json().token })).json().registered,
    ).toBe(true);
  });

  it('an address that already has a password account signs straight in through its domain provider', async () => {
    const { id } = await registered(w, 'existing@oidc.test');
    const res = await exchange(handoffOf(await oidcSignIn('existing@oidc.test')));
    expect(res.statusCode).toBe(200);
    expect(decodeSession(res.json().token).user._id).toBe(id);
  });

  it('OpenID Connect refusals end on the error page with their reason, never a session', async () => {
    // State not bound to this browser (no cookie, or another browser's).
    const started = await start('ada@oidc.test');
    const back = await signInAtProvider(String(started.headers.location), 'ada@oidc.test');
    expect(errorReason(await callback(back, ''))).toBe('invalid');
    // A replayed callback: its state was used.
    expect(errorReason(await callback(back, bindingOf(started)))).toBe('expired');
    // A code replayed into another sign-in (its state and binding, the old code).
    const other = await start('ada@oidc.test');
    const otherBack = await signInAtProvider(String(other.headers.location), 'ada@oidc.test');
    const replayed = new URL(otherBack);
    replayed.searchParams.set('code', back.searchParams.get('code') ?? '');
    expect(errorReason(await callback(replayed, bindingOf(other)))).toBe('invalid');
    // A wrong iss in the authorization response (RFC 9207).
    const third = await start('ada@oidc.test');
    const thirdBack = await signInAtProvider(String(third.headers.location), 'ada@oidc.test');
    thirdBack.searchParams.set('iss', 'https://evil.example');
    expect(errorReason(await callback(thirdBack, bindingOf(third)))).toBe('invalid');
    // Cancelled at the provider.
    const fourth = await start('ada@oidc.test');
    const state = new URL(String(fourth.headers.location)).searchParams.get('state') ?? '';
    const cancelled = new URL(ownCallback);
    cancelled.search = new URLSearchParams({ error: 'access_denied', state, iss: op.issuer }).toString();
    expect(errorReason(await callback(cancelled, bindingOf(fourth)))).toBe('cancelled');
    // email_verified false.
    op.accounts.set('unverified@oidc.test', { email_verified: false });
    expect(errorReason(await oidcSignIn('unverified@oidc.test'))).toBe('unverified');
    // The provider vouches for an address of another domain.
    op.accounts.set('mallory', { email: 'mallory@elsewhere.test' });
    expect(errorReason(await oidcSignIn('ada@oidc.test', 'mallory'))).toBe('foreign');
    const users = await w.app.db.kysely.selectFrom('users').select('email').execute();
    expect(users.map((u) => u.email)).not.toContain('mallory@elsewhere.test');
    expect(users.map((u) => u.email)).not.toContain('unverified@oidc.test');
  });

  it('a code issued to another client is refused', async () => {
    const started = await start('ada@oidc.test');
    const ours = new URL(String(started.headers.location));
    const theirs = new URL(ours);
    theirs.searchParams.set('client_id', op.otherClient.id);
    const back = await signInAtProvider(theirs.href, 'ada@oidc.test');
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(errorReason(await callback(back, bindingOf(started)))).toBe('invalid');
  });

  it('a provider that cannot be reached ends on the error page, and an unknown domain on the login screen', async () => {
    await admin(
      w,
      'sso',
      'set',
      'down.test',
      '--oidc',
      '--issuer',
      'https://127.0.0.1:9',
      '--client-id',
      'x',
      '--client-secret',
      'y',
    );
    expect(errorReason(await start('someone@down.test'))).toBe('unavailable');
    const none = await start('someone@plain.test');
    expect(none.statusCode).toBe(302);
    expect(String(none.headers.location)).toBe('http://localhost:8080/user/login?sso=not-configured');
    await admin(w, 'sso', 'remove', 'down.test');
  });

  it('SAML: a signed assertion answering our request signs in; the SSO-only domain refuses passwords', async () => {
    const requestId = await samlRequest('grace@saml.test');
    const handoff = handoffOf(await samlPost(await idp.answer(requestId, { email: 'grace@saml.test' })));
    const res = await exchange(handoff);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().profiles[0].info).toMatchObject({ first_name: 'Grace', last_name: 'Hopper' });
    expectError(
      await call(w.app, { method: 'POST', url: '/auth/login', body: { login: 'grace@saml.test', password: PASSWORD } }),
      403,
      'ERR_SSO_LOGIN_ONLY',
    );
  });

  it('SAML refusals: tampered, unsigned, replayed, expired, unsolicited, for another audience, foreign address', async () => {
    // Tampered: the signed address changed after signing.
    let id = await samlRequest('grace@saml.test');
    const signed = Buffer.from(await idp.answer(id, { email: 'grace@saml.test' }), 'base64').toString('utf8');
    const tampered = signed.replaceAll('grace@saml.test', 'admin@saml.test');
    expect(errorReason(await samlPost(Buffer.from(tampered).toString('base64')))).toBe('invalid');
    // Unsigned: the signature removed.
    id = await samlRequest('grace@saml.test');
    const unsigned = Buffer.from(await idp.answer(id, { email: 'grace@saml.test' }), 'base64')
      .toString('utf8')
      .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '');
    expect(unsigned).not.toContain('Signature');
    expect(errorReason(await samlPost(Buffer.from(unsigned).toString('base64')))).toBe('invalid');
    // Replayed: the same response twice.
    id = await samlRequest('grace@saml.test');
    const once = await idp.answer(id, { email: 'grace@saml.test' });
    handoffOf(await samlPost(once));
    expect(errorReason(await samlPost(once))).toBe('expired');
    // Expired: its validity ended ten minutes ago (beyond the allowed skew).
    id = await samlRequest('grace@saml.test');
    expect(
      errorReason(
        await samlPost(await idp.answer(id, { email: 'grace@saml.test', notBeforeS: -900, validForS: -600 })),
      ),
    ).toBe('expired');
    // Unsolicited: answering a request we never issued.
    expect(errorReason(await samlPost(await idp.answer('_never-issued', { email: 'grace@saml.test' })))).toBe(
      'expired',
    );
    // For another service provider.
    id = await samlRequest('grace@saml.test');
    expect(
      errorReason(
        await samlPost(await idp.answer(id, { email: 'grace@saml.test', audience: 'https://other.example/sp' })),
      ),
    ).toBe('invalid');
    // An address of another domain.
    id = await samlRequest('grace@saml.test');
    expect(errorReason(await samlPost(await idp.answer(id, { email: 'eve@oidc.test' })))).toBe('foreign');
    // Refused at the IdP.
    id = await samlRequest('grace@saml.test');
    expect(
      errorReason(
        await samlPost(
          await idp.answer(id, {
            email: 'grace@saml.test',
            statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
          }),
        ),
      ),
    ).toBe('cancelled');
    // Garbage.
    expect(errorReason(await samlPost('bm90IHhtbA=='))).toBe('expired');
  });

  it('a deactivated account cannot sign in through SSO, and a domain set inactive ends its SSO sessions', async () => {
    const live = await exchange(handoffOf(await oidcSignIn('ada@oidc.test')));
    const token = live.json().token as string;
    await admin(w, 'users', 'deactivate', 'ada@oidc.test');
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    expect(errorReason(await oidcSignIn('ada@oidc.test'))).toBe('inactive');
    await admin(w, 'users', 'activate', 'ada@oidc.test');
    // Ended sessions stay ended.
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
    const fresh = await exchange(handoffOf(await oidcSignIn('ada@oidc.test')));
    await admin(w, 'domain', 'set', 'oidc.test', '--inactive');
    expectError(
      await call(w.app, { method: 'GET', url: '/v2/user/me', token: fresh.json().token }),
      401,
      'ERR_INVALID_ACCESS_TOKEN',
    );
    expect(errorReason(await oidcSignIn('ada@oidc.test'))).toBe('inactive');
    await admin(w, 'domain', 'set', 'oidc.test', '--active');
  });

  it('counts every refusal in /metrics, and never answered 500', async () => {
    const metrics = await w.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    expect(metrics.body).toMatch(/suite_sso_failures_total\{protocol="saml",reason="invalid"\} [1-9]/);
    expect(metrics.body).toMatch(/suite_sso_failures_total\{protocol="oidc",reason="unverified"\} 1/);
    expect(answers.length).toBeGreaterThan(30);
    expect(answers.filter((a) => a.statusCode >= 500)).toEqual([]);
  });
});
