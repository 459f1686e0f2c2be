import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsAdmin } from '../src/modules/accounts/index.js';
import { certificateFingerprint } from '../src/modules/accounts/strategies/saml/saml.js';
import { ssoMetadataJob } from '../src/jobs/sso-metadata.js';
import { type AccountsWorld, admin, call, decodeSession, runAdminCli, startWorld } from './accounts-helpers.js';
import { logCapture } from './helpers.js';
import { extraKeys } from './idp/ca.js';
import { signInAtProvider } from './idp/drive.js';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from './idp/oidc.js';
import { startSamlIdp, type TestSamlIdp } from './idp/saml.js';
import { bindingOf, errorReason } from './sso-browser.js';

const CALLBACK = 'http://localhost:8080/api/sso/oidc/callback';
const pemBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/**
 * Single sign-on as an IT team connects and debugs it, against real providers (panva's oidc-provider,
 * a samlify IdP): attribute mapping, failures that name their cause in the page and the log, several
 * domains, federation metadata, SHA-1, metadata refresh and certificate rotation, `sso test`.
 */
describe('single sign-on an IT team can connect and debug', () => {
  let w: AccountsWorld;
  let op: TestOidcProvider;
  /** An OpenID provider whose issuer has a path and a trailing slash (Keycloak's, Authentik's form). */
  let slashOp: TestOidcProvider;
  let idp: TestSamlIdp;
  /**
   * One IdP is one connection (its entity ID routes unsolicited responses and logouts), so each further
   * SAML connection under test has an IdP of its own.
   */
  const own = {} as Record<'mapped' | 'fed' | 'sha1' | 'rotate' | 'expiring', TestSamlIdp>;
  const logs = logCapture();
  const redirectUris: string[] = [];
  const slashRedirectUris: string[] = [];

  /** The log lines written since `from` (an index into logs.lines), as text. */
  const logSince = (from: number) => logs.lines.slice(from).join('');

  let browserBinding = '';
  const start = async (query: string) => {
    const res = await w.app.inject({ method: 'GET', url: `/api/sso/start?${query}` });
    browserBinding = bindingOf(res);
    return res;
  };
  /** Follows a successful return through the /auth exchange; answers the session's /me. */
  async function signedInAs(res: LightMyRequestResponse) {
    expect(res.statusCode, res.body).toBe(302);
    const target = new URL(String(res.headers.location));
    expect(target.pathname, String(res.headers.location)).toBe('/auth');
    const handoff = target.searchParams.get('handoff') ?? '';
    const exchanged = await call(w.app, {
      method: 'POST',
      url: '/auth/handoff',
      body: { handoff },
      headers: { cookie: browserBinding },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token: exchanged.json().token as string });
    const token = exchanged.json().token as string;
    return { me: { ...me.json(), id: decodeSession(token).user._id }, profile: exchanged.json().profiles[0].info };
  }

  async function oidcSignIn(provider: TestOidcProvider, email: string) {
    const started = await start(`email=${encodeURIComponent(email)}`);
    expect(started.statusCode).toBe(302);
    expect(new URL(String(started.headers.location)).origin).toBe(new URL(provider.issuer).origin);
    const back = await signInAtProvider(String(started.headers.location), email);
    return w.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: bindingOf(started) },
    });
  }

  /** A SAML round trip: started by `query` (email= or domain=), answered by the IdP as `answer` says. */
  async function samlSignIn(query: string, answer: Parameters<TestSamlIdp['answer']>[1], via = idp) {
    const started = await start(query);
    expect(started.statusCode).toBe(302);
    expect(String(started.headers.location).startsWith(`${via.url}/sso?`), String(started.headers.location)).toBe(true);
    const requestId = await via.requestIdOf(String(started.headers.location));
    return w.app.inject({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: await via.answer(requestId, answer) }).toString(),
    });
  }

  const connectionId = async (domain: string) =>
    (
      await w.app.db.kysely
        .selectFrom('sso_connections')
        .select('id')
        .where('domain', '=', domain)
        .executeTakeFirstOrThrow()
    ).id!;

  beforeAll(async () => {
    w = await startWorld(
      { METRICS_TOKEN: 'metrics-token-0123456789' },
      { logger: { level: 'info', stream: logs.stream } },
    );
    op = await startOidcProvider(redirectUris);
    slashOp = await startOidcProvider(slashRedirectUris, { issuerPath: '/realms/test/' });
    const spMetadata = async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body;
    idp = await startSamlIdp(spMetadata);
    for (const name of ['mapped', 'fed', 'sha1', 'rotate', 'expiring'] as const)
      own[name] = await startSamlIdp(spMetadata);
    await admin(w, ...ssoSetOidc('oidc.test', op));
    await admin(w, ...ssoSetOidc('badsecret.test', { ...op, clientSecret: 'not-the-secret-0123456789abcdef' }));
    await admin(w, ...ssoSetOidc('entra.test', op), '--trust-email', '--email-attribute', 'upn');
    await admin(w, ...ssoSetOidc('slash.test', slashOp));
    for (const domain of ['oidc.test', 'badsecret.test', 'entra.test'])
      redirectUris.push(`${CALLBACK}/${await connectionId(domain)}`);
    slashRedirectUris.push(`${CALLBACK}/${await connectionId('slash.test')}`);
    const file = join(w.t.dataDir, 'idp-metadata.xml');
    writeFileSync(file, idp.metadata);
    await admin(
      w,
      'sso',
      'set',
      'saml.test',
      '--saml',
      '--metadata',
      file,
      '--domains',
      'saml-two.test,saml-three.test',
    );
  });
  afterAll(async () => {
    await op?.stop();
    await slashOp?.stop();
    await idp?.stop();
    for (const other of Object.values(own)) await other.stop();
    await w?.close();
  });

  it('SAML: Email/FirstName/LastName as Okta admins type them are read by default, and one log line says who signed in', async () => {
    const from = logs.lines.length;
    const first = await signedInAs(
      await samlSignIn('email=grace%40saml.test', {
        email: 'grace@saml.test',
        attributes: [
          ['Email', 'grace@saml.test'],
          ['FirstName', 'Grace'],
          ['LastName', 'Hopper'],
        ],
      }),
    );
    expect(first.profile).toMatchObject({ email: 'grace@saml.test', first_name: 'Grace', last_name: 'Hopper' });
    // The Microsoft claim URI and the urn:oid name, with an opaque NameID.
    const second = await signedInAs(
      await samlSignIn('email=alan%40saml.test', {
        email: 'alan@saml.test',
        nameId: 'opaque-alan',
        nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        attributes: [
          ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'alan@saml.test'],
          ['urn:oid:2.5.4.42', 'Alan'],
          ['urn:oid:2.5.4.4', 'Turing'],
        ],
      }),
    );
    expect(second.profile).toMatchObject({ email: 'alan@saml.test', first_name: 'Alan', last_name: 'Turing' });
    const id = await connectionId('saml.test');
    const text = logSince(from);
    expect(text).toContain(`sso: signed in through saml connection ${id} of saml.test (new account ${first.me.id}`);
    // A second sign-in is an existing account.
    await signedInAs(await samlSignIn('email=grace%40saml.test', { email: 'grace@saml.test' }));
    expect(logSince(from)).toContain(`(existing account ${first.me.id})`);
  });

  it('SAML: a mapped attribute name is read, and sso show lists the mapping and the defaults', async () => {
    const file = join(w.t.dataDir, 'mapped-idp-metadata.xml');
    writeFileSync(file, own.mapped.metadata);
    await admin(
      w,
      'sso',
      'set',
      'mapped.test',
      '--saml',
      '--metadata',
      file,
      '--email-attribute',
      'corpMail',
      '--first-name-attribute',
      'prenom',
    );
    const shown = await admin(w, 'sso', 'show', 'mapped.test');
    expect(shown).toContain('e-mail: corpMail (set), then email, mail');
    expect(shown).toContain('first name: prenom (set), then given_name, givenName');
    expect(shown).toContain('urn:oid:0.9.2342.19200300.100.1.3');
    const { profile } = await signedInAs(
      await samlSignIn(
        'email=ines%40mapped.test',
        {
          email: 'ines@mapped.test',
          nameId: 'x-1',
          nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
          attributes: [
            ['CORPMAIL', 'ines@mapped.test'],
            ['prenom', 'Inès'],
            ['sn', 'Garcia'],
          ],
        },
        own.mapped,
      ),
    );
    expect(profile).toMatchObject({ email: 'ines@mapped.test', first_name: 'Inès', last_name: 'Garcia' });
  });

  it('SAML: no address in the answer is its own reason, and the log names the attributes received, never values', async () => {
    const from = logs.lines.length;
    const res = await samlSignIn('email=nomail%40saml.test', {
      email: 'nomail@saml.test',
      nameId: 'opaque-7731',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      attributes: [
        ['uid', 'secret-uid-value'],
        ['displayName', 'Someone Private'],
      ],
    });
    expect(errorReason(res)).toBe('no-email');
    const text = logSince(from);
    expect(text).toContain('sso: sign-in refused (saml, no-email)');
    expect(text).toContain('attributes received: uid, displayName');
    expect(text).toContain('NameID format: urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
    expect(text).not.toContain('secret-uid-value');
    expect(text).not.toContain('Someone Private');
    expect(text).not.toContain('opaque-7731');
    expect(text).not.toContain('[object');
  });

  it('several domains: any of them starts by ?domain= and signs in, with the account in its own domain', async () => {
    const shown = await admin(w, 'sso', 'show', 'saml-two.test');
    expect(shown).toContain('domains: saml.test, saml-three.test, saml-two.test');
    for (const d of ['saml.test', 'saml-two.test', 'saml-three.test'])
      expect(shown).toContain(
        `start URL (portal or app tile) for ${d}: http://localhost:8080/api/sso/start?domain=${d}`,
      );
    const discover = await call(w.app, { method: 'POST', url: '/sso/discover', body: { email: 'x@saml-three.test' } });
    expect(discover.json().sso).toBe('available');
    const { me } = await signedInAs(await samlSignIn('domain=saml-two.test', { email: 'lin@saml-two.test' }));
    expect(me.email).toBe('lin@saml-two.test');
    const users = await admin(w, 'users', 'list', '--domain', 'saml-two.test');
    expect(users).toContain('lin@saml-two.test');
    // An address of a domain the connection does not serve is another organization's.
    expect(errorReason(await samlSignIn('domain=saml.test', { email: 'eve@elsewhere.test' }))).toBe('foreign');
    // A domain no connection serves: back to our sign-in page.
    const none = await start('domain=nobody.test');
    expect(String(none.headers.location)).toBe('http://localhost:8080/user/login?sso=not-configured');
    // A domain cannot serve two connections.
    const taken = await runAdminCli(w, ...ssoSetOidc('other.test', op), '--domains', 'saml-two.test');
    expect(taken.code).toBe(2);
    expect(taken.text).toContain('saml-two.test is already served by the single-sign-on connection of saml.test');
  });

  it('a federation metadata file: one entity is picked with --entity-id, and without it the CLI names the choice', async () => {
    const entity = /<(?:\w+:)?EntityDescriptor[\s\S]*<\/(?:\w+:)?EntityDescriptor>/.exec(own.fed.metadata)![0];
    const other = entity.replaceAll(own.fed.entityId, 'https://other-idp.example/metadata');
    const federation = `<?xml version="1.0"?><md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${other}${entity}</md:EntitiesDescriptor>`;
    const file = join(w.t.dataDir, 'federation.xml');
    writeFileSync(file, federation);
    // The operator's command, with the entity it picks (or none).
    const setFed = (...pick: string[]) => ['sso', 'set', 'fed.test', '--saml', '--metadata', file, ...pick];
    const refused = await runAdminCli(w, ...setFed());
    expect(refused.code).toBe(2);
    expect(refused.text).toContain(
      'metadata holds 2 identity providers (a federation file): pick one with --entity-id',
    );
    const missing = await runAdminCli(w, ...setFed('--entity-id', 'https://nope'));
    expect(missing.text).toContain('metadata has no entity https://nope');
    const shown = await admin(w, ...setFed('--entity-id', own.fed.entityId));
    expect(shown).toContain(`IdP entity ID: ${own.fed.entityId}`);
    await signedInAs(await samlSignIn('domain=fed.test', { email: 'fed@fed.test' }, own.fed));
  });

  it('SHA-1: refused for a new connection unless --allow-sha1; an older connection is warned about once a day', async () => {
    const from = logs.lines.length;
    expect(errorReason(await samlSignIn('domain=saml.test', { email: 'old@saml.test', signing: 'sha1' }))).toBe(
      'misconfigured',
    );
    expect(logSince(from)).toContain('the IdP signs with SHA-1');
    const file = join(w.t.dataDir, 'sha1-idp-metadata.xml');
    writeFileSync(file, own.sha1.metadata);
    const shown = await admin(w, 'sso', 'set', 'sha1.test', '--saml', '--metadata', file, '--allow-sha1');
    expect(shown).toContain('SHA-1 signatures: accepted (--allow-sha1)');
    const before = logs.lines.length;
    await signedInAs(await samlSignIn('domain=sha1.test', { email: 'a@sha1.test', signing: 'sha1' }, own.sha1));
    // A connection made before the rule (no sha1 setting): accepted, with one warning a day.
    const row = await w.app.db.kysely
      .selectFrom('sso_connections')
      .select('settings')
      .where('domain', '=', 'sha1.test')
      .executeTakeFirstOrThrow();
    const { sha1: _dropped, ...legacy } = JSON.parse(row.settings) as Record<string, unknown>;
    await w.app.db.kysely
      .updateTable('sso_connections')
      .set({ settings: JSON.stringify(legacy) })
      .where('domain', '=', 'sha1.test')
      .execute();
    expect(await admin(w, 'sso', 'show', 'sha1.test')).toContain('SHA-1 signatures: accepted with a daily warning');
    await signedInAs(await samlSignIn('domain=sha1.test', { email: 'b@sha1.test', signing: 'sha1' }, own.sha1));
    await signedInAs(await samlSignIn('domain=sha1.test', { email: 'c@sha1.test', signing: 'sha1' }, own.sha1));
    const warnings = logSince(before)
      .split('\n')
      .filter((l) => l.includes('signs with SHA-1 (RSA-SHA1'));
    expect(warnings).toHaveLength(1);
  });

  it('a metadata URL: an unannounced rotation names the fingerprints, and the refresh takes the new certificate', async () => {
    const shown = await admin(w, 'sso', 'set', 'rotate.test', '--saml', '--metadata', own.rotate.metadataUrl);
    expect(shown).toContain(`metadata URL: ${own.rotate.metadataUrl} (read daily`);
    const first = certificateFingerprint(pemBody(await import('./idp/ca.js').then((m) => m.testCa().samlCert)));
    const second = certificateFingerprint(pemBody(extraKeys().samlCert2));
    // The IdP signs with its next key before its metadata says so.
    own.rotate.publish('second');
    const from = logs.lines.length;
    expect(
      errorReason(
        await samlSignIn('domain=rotate.test', { email: 'r@rotate.test', signing: 'second-key' }, own.rotate),
      ),
    ).toBe('invalid');
    const text = logSince(from);
    expect(text).toContain(`signed with certificate SHA-256 ${second} (not one the connection holds)`);
    expect(text).toContain(`the connection holds SHA-256 ${first}`);
    // The daily job's refresh (the same code the job runs) takes it without a person.
    const { results } = await accountsAdmin(w.app.db.kysely).refreshSsoMetadata(w.app.config.keys.sso);
    expect(results.find((r) => r.domain === 'rotate.test')).toMatchObject({
      changed: true,
      added: [second],
      removed: [first],
    });
    await signedInAs(
      await samlSignIn('domain=rotate.test', { email: 'r@rotate.test', signing: 'second-key' }, own.rotate),
    );
    // `sso refresh` does the same at once: back to the first key.
    own.rotate.publish('first');
    const refreshed = await admin(w, 'sso', 'refresh', 'rotate.test');
    expect(refreshed).toContain(`certificates added: ${first}; removed: ${second}`);
    expect(await admin(w, 'sso', 'refresh', 'rotate.test')).toContain('nothing changed');
  });

  it('a certificate ending within 30 days: sso show, one log warning and the metric say so', async () => {
    own.expiring.publish('short');
    const shown = await admin(w, 'sso', 'set', 'expiring.test', '--saml', '--metadata', own.expiring.metadataUrl);
    expect(shown).toContain('WARNING: ends within 30 days');
    const from = logs.lines.length;
    const job = ssoMetadataJob(w.app);
    job.start();
    await job.stop();
    const short = certificateFingerprint(pemBody(extraKeys().samlShortCert));
    expect(logSince(from)).toContain(`signing certificate SHA-256 ${short} of expiring.test ends within 30 days`);
    const metrics = await w.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    const id = await connectionId('expiring.test');
    const line = metrics.body
      .split('\n')
      .find((l) => l.startsWith('suite_sso_certificate_expiry_seconds{') && l.includes(`connection="${id}"`));
    expect(line, metrics.body.slice(0, 500)).toContain('domain="expiring.test"');
    const seconds = Number(line!.split(' ').pop());
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(30 * 24 * 3600);
    // The same day, a second run warns no more.
    const again = logs.lines.length;
    const job2 = ssoMetadataJob(w.app);
    job2.start();
    await job2.stop();
    expect(logSince(again)).not.toContain('ends within 30 days');
    // Back to the first key.
    own.expiring.publish('first');
    await accountsAdmin(w.app.db.kysely).refreshSsoMetadata(w.app.config.keys.sso);
  });

  it('OpenID Connect: no e-mail claim is its own reason; a wrong client secret is "misconfigured", not an outage', async () => {
    op.accounts.set('noclaim@oidc.test', { email: null });
    const from = logs.lines.length;
    expect(errorReason(await oidcSignIn(op, 'noclaim@oidc.test'))).toBe('no-email');
    expect(logSince(from)).toMatch(/claims received: [^;]*\bsub\b/);
    const before = logs.lines.length;
    expect(errorReason(await oidcSignIn(op, 'someone@badsecret.test'))).toBe('misconfigured');
    const text = logSince(before);
    expect(text).toContain('invalid_client');
    expect(text).toContain('check the client id and secret');
    expect(text).not.toContain('[object');
    // `Email` as a provider's admin may name it is read by default.
    op.accounts.set('caps@oidc.test', { email: null, other: { Email: 'caps@oidc.test', FirstName: 'Cap' } });
    const { profile } = await signedInAs(await oidcSignIn(op, 'caps@oidc.test'));
    expect(profile).toMatchObject({ email: 'caps@oidc.test' });
  });

  it('email_verified is required unless --trust-email (the Entra ID recipe), which reads the mapped claim', async () => {
    op.accounts.set('noverify@oidc.test', { email_verified: null });
    const from = logs.lines.length;
    expect(errorReason(await oidcSignIn(op, 'noverify@oidc.test'))).toBe('unverified');
    expect(logSince(from)).toContain('email_verified is missing (sso set --trust-email');
    op.accounts.set('worker@entra.test', { email: null, email_verified: null, other: { upn: 'worker@entra.test' } });
    const { me } = await signedInAs(await oidcSignIn(op, 'worker@entra.test'));
    expect(me.email).toBe('worker@entra.test');
    expect(await admin(w, 'sso', 'show', 'entra.test')).toContain(
      'e-mail addresses: trusted as the provider sends them',
    );
  });

  it('an issuer with a path and a trailing slash is kept exactly, discovered and signs in', async () => {
    expect(slashOp.issuer.endsWith('/realms/test/')).toBe(true);
    expect(await admin(w, 'sso', 'show', 'slash.test')).toContain(`issuer: ${slashOp.issuer}\n`);
    const { me } = await signedInAs(await oidcSignIn(slashOp, 'kim@slash.test'));
    expect(me.email).toBe('kim@slash.test');
    const tested = await admin(w, 'sso', 'test', 'slash.test');
    expect(tested).toContain(`ok: issuer ${slashOp.issuer} matches exactly`);
    // The same issuer without its slash is another issuer: named as a misconfiguration, not an outage.
    const slashless = slashOp.issuer.slice(0, -1);
    await admin(w, ...ssoSetOidc('slashless.test', { ...slashOp, issuer: slashless }));
    const from = logs.lines.length;
    expect(errorReason(await start('email=kim%40slashless.test'))).toBe('misconfigured');
    expect(logSince(from)).toContain(`discovery of ${slashless} failed`);
    const problem = await runAdminCli(w, 'sso', 'test', 'slashless.test');
    expect(problem.code).toBe(1);
    expect(problem.text).toContain(
      `PROBLEM: the provider names itself "${slashOp.issuer}", the connection "${slashless}": issuers must match exactly`,
    );
  });

  it('sso test checks discovery, the client, metadata and certificates, and prints every start URL', async () => {
    const oidc = await admin(w, 'sso', 'test', 'oidc.test');
    expect(oidc).toContain('ok: discovery document');
    expect(oidc).toContain('ok: client suite-sso and its secret are accepted by the token endpoint');
    expect(oidc).toContain('start URL for oidc.test: http://localhost:8080/api/sso/start?domain=oidc.test');
    const bad = await runAdminCli(w, 'sso', 'test', 'badsecret.test');
    expect(bad.code).toBe(1);
    expect(bad.text).toContain('PROBLEM: the provider refuses client suite-sso (invalid_client)');
    const saml = await admin(w, 'sso', 'test', 'rotate.test');
    expect(saml).toMatch(/ok: signing certificate SHA-256 [0-9a-f]{64} \(RSA 2048 bits\) valid until/);
    expect(saml).toContain('ok: signatures: RSA-SHA256 or stronger required');
    const several = await admin(w, 'sso', 'test', 'saml.test');
    for (const d of ['saml.test', 'saml-two.test', 'saml-three.test'])
      expect(several).toContain(`start URL for ${d}: http://localhost:8080/api/sso/start?domain=${d}`);
  });

  it('a TLS trust problem is named with its cause and NODE_EXTRA_CA_CERTS, never a bare "fetch failed"', async () => {
    const keys = extraKeys();
    const server: Server = createServer({ key: keys.selfSignedKey, cert: keys.selfSignedCert }, (_q, r) =>
      r.end(idp.metadata),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
      const failed = await runAdminCli(w, 'sso', 'set', 'tls.test', '--saml', '--metadata', url);
      expect(failed.code).toBe(2);
      expect(failed.text).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
      expect(failed.text).toContain('a self-signed certificate or private CA');
      expect(failed.text).toContain('NODE_EXTRA_CA_CERTS');
      expect(failed.text).not.toMatch(/metadata: fetch failed$/m);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
