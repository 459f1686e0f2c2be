import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ADMIN_API, API, apiPath, type AdminSsoResponse, type SsoTestResult } from '@suite/contract';
import { PASSWORD, admin, call, expectError, registered, turnOnTotp, useWorld } from './accounts-helpers.js';
import { signInAtProvider } from './idp/drive.js';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from './idp/oidc.js';
import { startSamlIdp, type TestSamlIdp } from './idp/saml.js';
import { bindingOf, connectOidc, errorReason } from './sso-browser.js';

const API_URL = 'http://localhost:8080/api';

/**
 * The console's single-sign-on page on the server, and what the audit trail learns from sign-ins: a
 * refused provider answer joins its domain's trail with its reason, sign-ins carry the client's
 * address, and the mail of an administrator's reset says what was reset. Real providers (panva's
 * oidc-provider, a samlify IdP), a real server and database (SQLite here, PostgreSQL in its suite).
 */
describe('console: single sign-on and the audit of sign-ins', () => {
  const w = useWorld();
  let op: TestOidcProvider;
  let idp: TestSamlIdp;
  let oidcBoss: { token: string; id: string };
  let samlBoss: { token: string; id: string };
  let ana: { token: string; id: string };

  const ssoOf = (domain: string, token: string) =>
    call(w.app, { method: 'GET', url: apiPath(ADMIN_API.adminSso, { domain }), token });
  const state = async (domain: string, token: string): Promise<AdminSsoResponse> => {
    const res = await ssoOf(domain, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminSsoResponse;
  };
  /** The whole OIDC round trip, from the browser at `ip`; answers our callback's response. */
  async function oidcSignIn(email: string, login: string, ip: string) {
    const started = await w.app.inject({
      method: 'GET',
      url: `/api/sso/start?email=${encodeURIComponent(email)}`,
      remoteAddress: ip,
    });
    expect(started.statusCode).toBe(302);
    const back = await signInAtProvider(String(started.headers.location), login);
    return w.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: bindingOf(started) },
      remoteAddress: ip,
    });
  }

  beforeAll(async () => {
    const redirectUris: string[] = [];
    op = await startOidcProvider(redirectUris);
    idp = await startSamlIdp(async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body);
    oidcBoss = await registered(w, 'boss@oidc.test');
    samlBoss = await registered(w, 'boss@saml.test');
    ana = await registered(w, 'ana@saml.test');
    await admin(w, 'domain', 'admin', 'add', 'oidc.test', 'boss@oidc.test');
    await admin(w, 'domain', 'admin', 'add', 'saml.test', 'boss@saml.test');
    await connectOidc(w, 'oidc.test', op, redirectUris);
    const file = join(w.t.dataDir, 'idp-metadata.xml');
    writeFileSync(file, idp.metadata);
    await admin(w, 'sso', 'set', 'saml.test', '--saml', '--metadata', file);
  }, 60_000);
  afterAll(async () => {
    await op?.stop();
    await idp?.stop();
  });

  it('GET …/sso answers 404 to a non-admin and to the admin of another domain', async () => {
    expectError(await ssoOf('saml.test', ana.token), 404, 'ERR_NOT_FOUND');
    expectError(await ssoOf('saml.test', oidcBoss.token), 404, 'ERR_NOT_FOUND');
    expectError(await ssoOf('nowhere.test', samlBoss.token), 404, 'ERR_NOT_FOUND');
    expectError(await ssoOf('saml.test', ''), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('shows the OIDC connection without its secret, and the addresses to register at the provider', async () => {
    const res = await ssoOf('oidc.test', oidcBoss.token);
    expect(res.body).not.toContain(op.clientSecret);
    const sso = res.json() as AdminSsoResponse;
    const { id } = await w.app.db.kysely
      .selectFrom('sso_connections')
      .select('id')
      .where('domain', '=', 'oidc.test')
      .executeTakeFirstOrThrow();
    expect(sso).toMatchObject({
      domain: 'oidc.test',
      proven: false,
      sso_only: false,
      connection: {
        protocol: 'oidc',
        domains: ['oidc.test'],
        issuer: op.issuer,
        client_id: 'suite-sso',
        certificates: [],
        sha1: null,
      },
      failures: [],
    });
    expect(sso.ours.oidc_redirect_uri).toBe(`${API_URL}/sso/oidc/callback/${id}`);
    expect(sso.ours.oidc_backchannel_logout_uri).toBe(`${API_URL}/sso/oidc/backchannel-logout/${id}`);
    expect(sso.ours.start_url).toBe(`${API_URL}/sso/start?domain=oidc.test`);
  });

  it('shows the SAML connection: IdP, certificate end, SHA-1 standing, logout endpoint, IdP-initiated flag', async () => {
    const sso = await state('saml.test', samlBoss.token);
    const connection = sso.connection!;
    expect(connection).toMatchObject({
      protocol: 'saml',
      entity_id: idp.entityId,
      sso_url: `${idp.url}/sso`,
      metadata_url: null,
      sha1: 'refuse',
      idp_initiated: false,
      issuer: null,
    });
    expect(connection.certificates).toHaveLength(1);
    const [cert] = connection.certificates;
    expect(cert!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(cert!.expires_at!)).toBeGreaterThan(Date.now());
    expect(sso.ours).toMatchObject({
      saml_entity_id: `${API_URL}/sso/saml/metadata`,
      saml_metadata_url: `${API_URL}/sso/saml/metadata`,
      saml_acs_url: `${API_URL}/sso/saml/acs`,
      saml_slo_url: `${API_URL}/sso/saml/slo`,
      oidc_redirect_uri: null,
    });
  });

  it('a refused provider answer joins its domain’s failures with reason, address, detail and client IP', async () => {
    op.accounts.set('unverified@oidc.test', { email_verified: false });
    expect(errorReason(await oidcSignIn('unverified@oidc.test', 'unverified@oidc.test', '203.0.113.7'))).toBe(
      'unverified',
    );
    op.accounts.set('mallory', { email: 'mallory@elsewhere.test' });
    expect(errorReason(await oidcSignIn('ada@oidc.test', 'mallory', '203.0.113.8'))).toBe('foreign');
    const sso = await state('oidc.test', oidcBoss.token);
    expect(sso.failures.map((f) => [f.step, f.reason, f.email, f.ip])).toEqual([
      ['oidc', 'foreign', 'mallory@elsewhere.test', '203.0.113.8'],
      // Refused inside the provider's answer, before an address was taken from it.
      ['oidc', 'unverified', null, '203.0.113.7'],
    ]);
    expect(sso.failures[0]!.detail.length).toBeGreaterThan(0);
    // Nothing was created, and the other domain's page does not show them.
    const users = await w.app.db.kysely.selectFrom('users').select('email').execute();
    expect(users.map((u) => u.email)).not.toContain('unverified@oidc.test');
    expect((await state('saml.test', samlBoss.token)).failures).toEqual([]);
    // The audit trail lists them under their kind too.
    const audit = await call(w.app, {
      method: 'GET',
      url: `${apiPath(ADMIN_API.adminAudit, { domain: 'oidc.test' })}?kind=sso_failed`,
      token: oidcBoss.token,
    });
    expect(audit.json().events.map((e: { reason: string }) => e.reason)).toEqual(['foreign', 'unverified']);
  });

  it('a SAML answer refused after its request is known joins the domain’s failures', async () => {
    const started = await w.app.inject({ method: 'GET', url: '/api/sso/start?email=grace%40saml.test' });
    const requestId = await idp.requestIdOf(String(started.headers.location));
    const expired = await idp.answer(requestId, { email: 'grace@saml.test', notBeforeS: -900, validForS: -600 });
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: expired }).toString(),
      remoteAddress: '198.51.100.4',
    });
    expect(errorReason(res)).toBe('expired');
    const [failure] = (await state('saml.test', samlBoss.token)).failures;
    expect(failure).toMatchObject({ step: 'saml', reason: 'expired', ip: '198.51.100.4' });
  });

  describe('Test sign-in', () => {
    const testPath = (domain: string) => apiPath(ADMIN_API.adminSsoTest, { domain });
    const startTest = (domain: string, token: string) =>
      w.app.inject({ method: 'POST', url: `/api${testPath(domain)}`, headers: { authorization: `Bearer ${token}` } });
    const resultOf = async (domain: string, token: string) => {
      const res = await call(w.app, { method: 'GET', url: testPath(domain), token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result as SsoTestResult | null;
    };
    const landsOnConsole = (res: LightMyRequestResponse) => {
      expect(res.statusCode, res.body).toBe(302);
      expect(String(res.headers.location)).toBe('http://localhost:8080/app/admin/single-sign-on#sso-test-done');
    };

    it('runs the real OIDC flow and reports the claims and each check, creating no account and no session', async () => {
      expect(await resultOf('oidc.test', oidcBoss.token)).toBeNull();
      const started = await startTest('oidc.test', oidcBoss.token);
      expect(started.statusCode, started.body).toBe(200);
      const { url } = started.json() as { url: string };
      expect(url.startsWith(op.issuer)).toBe(true);
      const sessionsBefore = await w.app.db.kysely.selectFrom('sessions').select('id').execute();
      op.accounts.set('tester@oidc.test', {});
      const back = await signInAtProvider(url, 'tester@oidc.test');
      const res = await w.app.inject({
        method: 'GET',
        url: `${back.pathname}${back.search}`,
        headers: { cookie: bindingOf(started) },
      });
      landsOnConsole(res);
      const result = await resultOf('oidc.test', oidcBoss.token);
      expect(result).toMatchObject({ protocol: 'oidc', passed: true, email: 'tester@oidc.test' });
      expect(result!.checks.map((c) => [c.check, c.ok, c.detail])).toEqual([
        ['answer', true, op.issuer],
        ['address', true, 'tester@oidc.test'],
        ['domain_active', true, 'oidc.test'],
        ['account', true, 'new'],
      ]);
      expect(result!.received).toContain('email');
      const users = await w.app.db.kysely.selectFrom('users').select('email').execute();
      expect(users.map((u) => u.email)).not.toContain('tester@oidc.test');
      expect(await w.app.db.kysely.selectFrom('sessions').select('id').execute()).toHaveLength(sessionsBefore.length);
      // Another administrator (of another domain) sees nothing of it.
      expectError(
        await call(w.app, { method: 'GET', url: testPath('oidc.test'), token: samlBoss.token }),
        404,
        'ERR_NOT_FOUND',
      );
    });

    it('a SAML answer for an address of another domain fails the address check, with the reason a person would get', async () => {
      const started = await startTest('saml.test', samlBoss.token);
      expect(started.statusCode, started.body).toBe(200);
      const requestId = await idp.requestIdOf((started.json() as { url: string }).url);
      const answer = await idp.answer(requestId, { email: 'eve@elsewhere.test' });
      landsOnConsole(
        await w.app.inject({
          method: 'POST',
          url: '/api/sso/saml/acs',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ SAMLResponse: answer }).toString(),
        }),
      );
      const result = await resultOf('saml.test', samlBoss.token);
      expect(result).toMatchObject({ protocol: 'saml', passed: false, email: 'eve@elsewhere.test' });
      expect(result!.checks.map((c) => [c.check, c.ok, c.reason])).toEqual([
        ['answer', true, null],
        ['address', false, 'foreign'],
      ]);
      expect(result!.received).toContain('givenName');
      // A tampered answer fails the first check.
      const again = await startTest('saml.test', samlBoss.token);
      const id = await idp.requestIdOf((again.json() as { url: string }).url);
      const signed = Buffer.from(await idp.answer(id, { email: 'grace@saml.test' }), 'base64').toString('utf8');
      const tampered = Buffer.from(signed.replaceAll('grace@saml.test', 'boss@saml.test')).toString('base64');
      landsOnConsole(
        await w.app.inject({
          method: 'POST',
          url: '/api/sso/saml/acs',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ SAMLResponse: tampered }).toString(),
        }),
      );
      const refused = await resultOf('saml.test', samlBoss.token);
      expect(refused!.passed).toBe(false);
      expect(refused!.checks).toEqual([expect.objectContaining({ check: 'answer', ok: false, reason: 'invalid' })]);
    });

    it('set up from the console: a proven domain only; off until a Test sign-in passes, then on', async () => {
      const chief = await registered(w, 'chief@fresh.test');
      await admin(w, 'domain', 'admin', 'add', 'fresh.test', 'chief@fresh.test');
      const setup = (body: unknown) =>
        call(w.app, {
          method: 'PUT',
          url: apiPath(ADMIN_API.adminSso, { domain: 'fresh.test' }),
          token: chief.token,
          body,
        });
      // Granted by the operator only: the domain is not proven.
      expectError(await setup({ protocol: 'saml', metadata_xml: idp.metadata }), 403, 'ERR_SSO_DOMAIN_NOT_PROVEN');
      // Proven by its DNS record (the record's check itself is admin-dns.test.ts's): a claim row as it writes it.
      await w.app.db.kysely
        .updateTable('domain_admins')
        .set({ via: 'dns', checked_at: Date.now() })
        .where('domain', '=', 'fresh.test')
        .execute();
      expectError(await setup({ protocol: 'saml', metadata_xml: '<nope/>' }), 400, 'ERR_SSO_SETUP_INVALID');
      expectError(await setup({ protocol: 'saml' }), 400, 'ERR_VALIDATION');
      expect((await state('fresh.test', chief.token)).connection).toBeNull();
      // The IdP of another domain's connection is that connection's to extend, not a second one.
      expectError(await setup({ protocol: 'saml', metadata_xml: idp.metadata }), 409, 'ERR_SSO_PROVIDER_TAKEN');
      expect((await state('fresh.test', chief.token)).connection).toBeNull();
      const freshIdp = await startSamlIdp(
        async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body,
      );
      onTestFinished(() => freshIdp.stop());
      const res = await setup({ protocol: 'saml', metadata_xml: freshIdp.metadata });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ proven: true, connection: { protocol: 'saml', awaiting_test: true } });
      // Off: nobody is offered it nor can start it.
      const discover = () => call(w.app, { method: 'POST', url: API.ssoDiscover, body: { email: 'kim@fresh.test' } });
      expect((await discover()).json()).toEqual({ sso: 'none' });
      const start = await w.app.inject({ method: 'GET', url: '/api/sso/start?email=kim%40fresh.test' });
      expect(new URL(String(start.headers.location)).search).toBe('?sso=not-configured');
      // A failed test leaves it off; a passed one switches it on.
      const runTest = async (email: string) => {
        const started = await startTest('fresh.test', chief.token);
        expect(started.statusCode, started.body).toBe(200);
        const id = await freshIdp.requestIdOf((started.json() as { url: string }).url);
        landsOnConsole(
          await w.app.inject({
            method: 'POST',
            url: '/api/sso/saml/acs',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({ SAMLResponse: await freshIdp.answer(id, { email }) }).toString(),
          }),
        );
        return (await resultOf('fresh.test', chief.token))!;
      };
      expect((await runTest('kim@elsewhere.test')).passed).toBe(false);
      expect((await state('fresh.test', chief.token)).connection!.awaiting_test).toBe(true);
      expect((await runTest('kim@fresh.test')).passed).toBe(true);
      expect((await state('fresh.test', chief.token)).connection!.awaiting_test).toBe(false);
      expect((await discover()).json()).toEqual({ sso: 'available' });
      const users = await w.app.db.kysely.selectFrom('users').select('email').execute();
      expect(users.map((u) => u.email)).not.toContain('kim@fresh.test');
    });

    it('refuses to set a connection up again on an SSO-only domain (it would be off, locking everyone out), changing nothing', async () => {
      const chief = await registered(w, 'chief@locked.test');
      await admin(w, 'domain', 'admin', 'add', 'locked.test', 'chief@locked.test');
      await w.app.db.kysely
        .updateTable('domain_admins')
        .set({ via: 'dns', checked_at: Date.now() })
        .where('domain', '=', 'locked.test')
        .execute();
      await admin(w, ...ssoSetOidc('locked.test', op));
      await admin(w, 'domain', 'set', 'locked.test', '--sso-only');
      const before = await state('locked.test', chief.token);
      expect(before).toMatchObject({ sso_only: true, connection: { protocol: 'oidc', awaiting_test: false } });
      const setup = (body: unknown) =>
        call(w.app, {
          method: 'PUT',
          url: apiPath(ADMIN_API.adminSso, { domain: 'locked.test' }),
          token: chief.token,
          body,
        });
      const oidc = { protocol: 'oidc', issuer: op.issuer, client_id: op.clientId, client_secret: op.clientSecret };
      expectError(await setup(oidc), 409, 'ERR_SSO_SETUP_SSO_ONLY');
      expectError(await setup({ protocol: 'saml', metadata_xml: idp.metadata }), 409, 'ERR_SSO_SETUP_SSO_ONLY');
      // The old connection still serves: people of the domain are still offered it.
      expect(await state('locked.test', chief.token)).toEqual(before);
      const discover = await call(w.app, { method: 'POST', url: API.ssoDiscover, body: { email: 'kim@locked.test' } });
      expect(discover.json()).toEqual({ sso: 'required' });
      // Once SSO-only is off (the sign-up rules), the new connection is saved, off until tested.
      const rules = await call(w.app, {
        method: 'PUT',
        url: apiPath(ADMIN_API.adminSignupRules, { domain: 'locked.test' }),
        token: chief.token,
        body: { sso_only: false },
      });
      expect(rules.statusCode, rules.body).toBe(200);
      const res = await setup(oidc);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ sso_only: false, connection: { protocol: 'oidc', awaiting_test: true } });
    });

    it('needs an administrator, a connection and a fresh proof', async () => {
      expectError(await startTest('saml.test', ana.token), 404, 'ERR_NOT_FOUND');
      await registered(w, 'boss@plain.test');
      const plain = await registered(w, 'chief@plain.test');
      await admin(w, 'domain', 'admin', 'add', 'plain.test', 'chief@plain.test');
      expectError(await startTest('plain.test', plain.token), 409, 'ERR_SSO_NO_CONNECTION');
      await w.app.db.kysely
        .updateTable('sessions')
        .set({ proved_at: Date.now() - 60 * 60 * 1000 })
        .where('user_id', '=', samlBoss.id)
        .execute();
      expectError(await startTest('saml.test', samlBoss.token), 403, 'ERR_PROOF_REQUIRED');
    });
  });

  it('sign-ins and refused sign-ins carry the client IP in the audit trail', async () => {
    const ok = await w.app.inject({
      method: 'POST',
      url: `/api${API.login}`,
      payload: { login: 'ana@saml.test', password: PASSWORD },
      remoteAddress: '192.0.2.10',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const bad = await w.app.inject({
      method: 'POST',
      url: `/api${API.login}`,
      payload: { login: 'ana@saml.test', password: 'Wrong-Horse-42' },
      remoteAddress: '192.0.2.11',
    });
    expect(bad.statusCode).toBe(401);
    const audit = await call(w.app, {
      method: 'GET',
      url: `${apiPath(ADMIN_API.adminAudit, { domain: 'saml.test' })}?person=ana@saml.test`,
      token: samlBoss.token,
    });
    const events = audit.json().events as { kind: string; ip: string | null }[];
    expect(events.find((e) => e.kind === 'sign_in')?.ip).toBe('192.0.2.10');
    expect(events.find((e) => e.kind === 'sign_in_failed')?.ip).toBe('192.0.2.11');
  });

  it('the mail of a reset says what was reset: two-step only, or passkeys only', async () => {
    await turnOnTotp(w, ana.token);
    const login = await call(w.app, {
      method: 'POST',
      url: API.login,
      body: { login: 'boss@saml.test', password: PASSWORD },
    });
    const boss = login.json().token as string;
    const mailAfter = (before: number, subject: RegExp) =>
      w.smtp.waitFor(
        (m) => w.smtp.messages.indexOf(m) >= before && m.to.includes('ana@saml.test') && subject.test(m.subject),
      );
    let before = w.smtp.messages.length;
    const reset = await call(w.app, {
      method: 'POST',
      url: apiPath(ADMIN_API.adminPersonResetTwoStep, { id: ana.id }),
      token: boss,
      body: {},
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const twoStep = await mailAfter(before, /reset/);
    expect(twoStep.subject).toContain('two-step verification was reset');
    expect(twoStep.text).toContain('turned off two-step verification');
    expect(twoStep.text).not.toContain('passkeys');
    before = w.smtp.messages.length;
    const removed = await call(w.app, {
      method: 'POST',
      url: apiPath(ADMIN_API.adminPersonRemovePasskeys, { id: ana.id }),
      token: boss,
      body: {},
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const passkeys = await mailAfter(before, /removed/);
    expect(passkeys.subject).toContain('passkeys were removed');
    expect(passkeys.text).toContain('removed the passkeys');
    expect(passkeys.text).not.toContain('two-step');
  });
});
