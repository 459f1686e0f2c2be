import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, decodeSession, expectError, startWorld, type AccountsWorld } from './accounts-helpers.js';
import { acceptSsoTerms } from './sso-browser.js';
import { logCapture } from './helpers.js';
import { TestBrowser, type Landing } from './idp/browser.js';
import { simpleSamlPhpMissing, startSimpleSamlPhp, type SimpleSamlPhp } from './idp/simplesamlphp.js';

const missing = simpleSamlPhpMissing();
if (missing) {
  // The test command installs Debian's simplesamlphp and php: a machine without them skips, loudly.
  console.warn(`\n*** SKIPPING the SimpleSAMLphp suite: ${missing} ***\n`);
}

const PUBLIC = 'http://localhost:8080';
const SP_ENTITY = `${PUBLIC}/api/sso/saml/metadata`;

const users = [
  {
    username: 'alice',
    attributes: { uid: ['alice'], email: ['alice@ssp.test'], givenName: ['Alice'], sn: ['Liddell'] },
  },
  { username: 'bob', attributes: { uid: ['bob'], email: ['bob@ssp.test'], givenName: ['Bob'], sn: ['Builder'] } },
  { username: 'carol', attributes: { uid: ['carol'], email: ['carol@ssp.test'], givenName: ['Carol'], sn: ['Ann'] } },
  { username: 'dave', attributes: { uid: ['dave'], email: ['dave@ssp.test'], givenName: ['Dave'], sn: ['Bowman'] } },
  { username: 'erin', attributes: { uid: ['erin'], email: ['erin@ssp.test'], givenName: ['Erin'], sn: ['Brock'] } },
  // Named as Okta's, Google's and OneLogin's admins type them.
  {
    username: 'frank',
    attributes: { uid: ['frank'], Email: ['frank@ssp.test'], FirstName: ['Frank'], LastName: ['Castle'] },
  },
  // The address under a name no default covers: read only once the connection maps it.
  { username: 'gina', attributes: { uid: ['gina'], workEmail: ['gina@ssp.test'], givenName: ['Gina'], sn: ['Lu'] } },
];

/**
 * Single sign-on against Debian's SimpleSAMLphp 1.19, a SAML provider nobody here wrote, configured
 * at run time: sign-in, encrypted assertions, the app tile (IdP-initiated) and single logout both ways.
 */
describe.skipIf(missing !== null)('SimpleSAMLphp as the SAML provider', () => {
  let w: AccountsWorld;
  let ssp: SimpleSamlPhp;
  const logs = logCapture();
  const logSince = (from: number) => logs.lines.slice(from).join('');
  const metadataFile = () => join(w.t.dataDir, 'ssp-metadata.xml');
  const userRow = (email: string) =>
    w.app.db.kysely
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('email', '=', email)
      .executeTakeFirst();
  const spMetadata = async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body;
  const browser = (username: string) => new TestBrowser(w.app, PUBLIC, { username, password: username });

  /** The /auth page's exchange, with this browser's binding cookie (or the person's "Continue"). */
  const exchange = (b: TestBrowser, landing: Landing, confirm = false) =>
    call(w.app, {
      method: 'POST',
      url: '/auth/handoff',
      body: { handoff: landing.url.searchParams.get('handoff') ?? '', ...(confirm ? { confirm: true } : {}) },
      headers: { cookie: b.ourCookie() },
    });
  const expectHandoff = (landing: Landing) =>
    expect(`${landing.url.origin}${landing.url.pathname}`, landing.url.href).toBe(`${PUBLIC}/auth`);
  const reasonOf = (landing: Landing) => {
    expect(landing.url.pathname, landing.url.href).toBe('/login-error-sso');
    return landing.url.searchParams.get('reason');
  };
  async function signIn(username: string): Promise<{ b: TestBrowser; token: string; landing: Landing }> {
    const b = browser(username);
    const landing = await b.go(`/api/sso/start?email=${username}@ssp.test`);
    expectHandoff(landing);
    const res = await exchange(b, landing);
    expect(res.statusCode, res.body).toBe(200);
    return { b, token: res.json().token as string, landing };
  }
  const alive = async (token: string) =>
    (await call(w.app, { method: 'GET', url: '/v2/user/me', token })).statusCode === 200;

  beforeAll(async () => {
    const started = Date.now();
    w = await startWorld({}, { logger: { level: 'info', stream: logs.stream } });
    ssp = await startSimpleSamlPhp({ users });
    // Started within the test-loop budget: a slow harness would be paid by every run.
    expect(Date.now() - started).toBeLessThan(15_000);
    ssp.trustSp(await spMetadata());
    const file = join(w.t.dataDir, 'ssp-metadata.xml');
    writeFileSync(file, await ssp.metadata());
    await admin(w, 'sso', 'set', 'ssp.test', '--saml', '--metadata', file);
  });
  afterAll(async () => {
    await ssp?.stop();
    await w?.close();
  });

  it('shows the IdP single logout and the tile URL, and our metadata has an encryption key and SLO', async () => {
    const shown = await admin(w, 'sso', 'show', 'ssp.test');
    expect(shown).toContain(`IdP single logout: ${ssp.url}/saml2/idp/SingleLogoutService.php`);
    expect(shown).toContain('IdP-initiated sign-in (app tile): off');
    expect(shown).toContain(`app tile URL: ${PUBLIC}/api/sso/start?domain=ssp.test`);
    const metadata = await spMetadata();
    expect(metadata).toMatch(/<KeyDescriptor use="encryption">/);
    expect(metadata).toContain(
      `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${PUBLIC}/api/sso/saml/slo"`,
    );
  });

  it('first sign-in creates the account (terms next), the second goes straight in', async () => {
    const first = await signIn('alice');
    const me = await call(w.app, { method: 'GET', url: '/v2/user/me', token: first.token });
    expect(me.json()).toMatchObject({ confirmed: true, registered: false });
    await acceptSsoTerms(w, first.token);
    const second = await signIn('alice');
    expect(decodeSession(second.token).user.email).toBe('alice@ssp.test');
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token: second.token })).json().registered).toBe(
      true,
    );
  });

  it('an encrypted assertion is decrypted, also with the key retired by sso sp-key rotate', async () => {
    ssp.trustSp(await spMetadata(), { encrypt: true });
    const { landing } = await signIn('bob');
    const response = Buffer.from(landing.posted.find((p) => p.name === 'SAMLResponse')!.value, 'base64').toString();
    expect(response).toContain('EncryptedAssertion');
    expect(response).not.toContain('bob@ssp.test');

    const before = await spMetadata();
    const rotated = await admin(w, 'sso', 'sp-key', 'rotate');
    expect(rotated).toMatch(/still decrypt until .* \(14 days\)/);
    const after = await spMetadata();
    const certOf = (xml: string) => /<(?:\w+:)?X509Certificate[^>]*>([^<]+)</.exec(xml)?.[1];
    expect(certOf(after)).not.toBe(certOf(before));
    // SimpleSAMLphp still encrypts to the old certificate: the retired key decrypts it.
    expect((await signIn('bob')).token).toBeTruthy();
    // Once it reads the new metadata, the new key does.
    ssp.trustSp(after, { encrypt: true });
    expect((await signIn('bob')).token).toBeTruthy();
    ssp.trustSp(after);
  });

  it('a sign-in from the app tile is refused with the way in, unless the connection allows it', async () => {
    const tile = browser('carol');
    const refused = await tile.go(ssp.tileUrl(SP_ENTITY));
    expect(reasonOf(refused)).toBe('idp-initiated');
    expect(
      await w.app.db.kysely.selectFrom('users').select('id').where('email', '=', 'carol@ssp.test').executeTakeFirst(),
    ).toBeUndefined();

    const file = join(w.t.dataDir, 'ssp-metadata.xml');
    await admin(w, 'sso', 'set', 'ssp.test', '--saml', '--metadata', file, '--allow-idp-initiated');
    const landing = await tile.go(ssp.tileUrl(SP_ENTITY));
    expectHandoff(landing);
    // Nothing binds it to this browser: the page asks "Continue as …?" and no session exists yet.
    const asked = await exchange(tile, landing);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ confirm_as: 'carol@ssp.test' });
    const confirmed = await exchange(tile, landing, true);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(decodeSession(confirmed.json().token).user.email).toBe('carol@ssp.test');
    // The same response posted again is a replay.
    const again = await tile.go(
      '/api/sso/saml/acs',
      new URLSearchParams({ SAMLResponse: landing.posted.at(-1)!.value }),
    );
    expect(reasonOf(again)).toBe('expired');
    await admin(w, 'sso', 'set', 'ssp.test', '--saml', '--metadata', file);
  });

  it('the tile URL starts a sign-in for the domain', async () => {
    const b = browser('alice');
    const landing = await b.go('/api/sso/start?domain=ssp.test');
    expectHandoff(landing);
    expect((await exchange(b, landing)).statusCode).toBe(200);
    expect((await b.go('/api/sso/start?domain=nowhere.test')).url.href).toBe(`${PUBLIC}/user/login?sso=not-configured`);
  });

  it('our sign-out ends the provider session too (signed LogoutRequest), and comes back to the sign-in page', async () => {
    const { b, token } = await signIn('dave');
    const out = await call(w.app, { method: 'POST', url: '/auth/logout', token });
    expect(out.statusCode, out.body).toBe(200);
    const logoutUrl = new URL(out.json().logout_url as string);
    expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${ssp.url}/saml2/idp/SingleLogoutService.php`);
    expect(logoutUrl.searchParams.get('Signature')).toBeTruthy();
    const request = inflateRawSync(Buffer.from(logoutUrl.searchParams.get('SAMLRequest')!, 'base64')).toString();
    expect(request).toContain('SessionIndex');
    expect(await alive(token)).toBe(false);
    const back = await b.go(logoutUrl.href);
    expect(back.url.href).toBe(`${PUBLIC}/user/login?signed-out=1`);
    // The provider's session is over: its next sign-in asks for the password again (no auto-post).
    const res = await fetch(ssp.tileUrl(SP_ENTITY), { redirect: 'manual', headers: { cookie: b.cookiesOf(ssp.url) } });
    expect(res.headers.get('location') ?? '').toContain('loginuserpass');
  });

  it('"sign out of all devices" from an SSO session ends every session here and this device\'s provider session', async () => {
    // alice finished her welcome step above: a full session may sign out everywhere.
    const other = await signIn('alice');
    const { b, token } = await signIn('alice');
    const out = await call(w.app, { method: 'POST', url: '/auth/logout-all', token });
    expect(out.statusCode, out.body).toBe(200);
    expect(await alive(token)).toBe(false);
    expect(await alive(other.token)).toBe(false);
    const logoutUrl = new URL(out.json().logout_url as string);
    expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${ssp.url}/saml2/idp/SingleLogoutService.php`);
    expect((await b.go(logoutUrl.href)).url.href).toBe(`${PUBLIC}/user/login?signed-out=1`);
    const res = await fetch(ssp.tileUrl(SP_ENTITY), { redirect: 'manual', headers: { cookie: b.cookiesOf(ssp.url) } });
    expect(res.headers.get('location') ?? '').toContain('loginuserpass');
  });

  it('a logout at the provider ends the session that sign-in made here, answered with a LogoutResponse', async () => {
    const other = await signIn('erin');
    const { b, token } = await signIn('erin');
    // Another browser's session of the same person came from another provider session: it stays.
    const back = await b.go(ssp.logoutUrl(`${PUBLIC}/user/login?from=idp`));
    expect(back.url.href).toBe(`${PUBLIC}/user/login?from=idp`);
    expect(await alive(token)).toBe(false);
    expect(await alive(other.token)).toBe(true);
    expectError(await call(w.app, { method: 'GET', url: '/v2/user/me', token }), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });

  it('an unsigned or forged LogoutRequest ends nothing', async () => {
    const { token } = await signIn('alice');
    const b = browser('alice');
    const forged = await b.go(`/api/sso/saml/slo?SAMLRequest=${encodeURIComponent('bm90IGRlZmxhdGVk')}`);
    expect(forged.url.pathname).toBe('/user/login');
    expect(await alive(token)).toBe(true);
  });

  it('an Email attribute with FirstName and LastName, mapped with --email-attribute and the name flags', async () => {
    const shown = await admin(
      w,
      'sso',
      'set',
      'ssp.test',
      '--saml',
      '--metadata',
      metadataFile(),
      '--email-attribute',
      'Email',
      '--first-name-attribute',
      'FirstName',
      '--last-name-attribute',
      'LastName',
    );
    expect(shown).toContain('e-mail: Email (set), then email, mail');
    const { token } = await signIn('frank');
    expect(decodeSession(token).user.email).toBe('frank@ssp.test');
    expect(await userRow('frank@ssp.test')).toMatchObject({ first_name: 'Frank', last_name: 'Castle' });
    await admin(w, 'sso', 'set', 'ssp.test', '--saml', '--metadata', metadataFile());
  });

  it('no address the connection reads: the no-email reason, nothing made; mapping its name lets the person in', async () => {
    const from = logs.lines.length;
    const landing = await browser('gina').go('/api/sso/start?email=gina@ssp.test');
    expect(reasonOf(landing)).toBe('no-email');
    expect(await userRow('gina@ssp.test')).toBeUndefined();
    // The log names the attributes received, never their values, so IT sees what to map.
    const refusal = logSince(from)
      .split('\n')
      .filter((line) => line.includes('the provider sent no e-mail address'));
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toContain('workEmail');
    expect(refusal[0]).not.toContain('gina@ssp.test');

    await admin(w, 'sso', 'set', 'ssp.test', '--saml', '--metadata', metadataFile(), '--email-attribute', 'workEmail');
    const { token } = await signIn('gina');
    expect(decodeSession(token).user.email).toBe('gina@ssp.test');
    expect(await userRow('gina@ssp.test')).toMatchObject({ first_name: 'Gina', last_name: 'Lu' });
    await admin(w, 'sso', 'set', 'ssp.test', '--saml', '--metadata', metadataFile());
  });

  it('a response signed with RSA-SHA1 is refused as a misconfiguration, and no one is signed in', async () => {
    ssp.trustSp(await spMetadata(), { sha1: true });
    const from = logs.lines.length;
    const landing = await browser('alice').go('/api/sso/start?email=alice@ssp.test');
    expect(reasonOf(landing)).toBe('misconfigured');
    expect(logSince(from)).toContain('the IdP signs with SHA-1');
    ssp.trustSp(await spMetadata());
    // Back on RSA-SHA256, the same person goes in.
    expect((await signIn('alice')).token).toBeTruthy();
  });

  it('an unannounced certificate rotation names the fingerprint; sso refresh reads the metadata URL and takes it', async () => {
    const set = await admin(w, 'sso', 'set', 'ssp.test', '--saml', '--metadata', ssp.metadataUrl);
    expect(set).toContain(`metadata URL: ${ssp.metadataUrl} (read daily`);
    ssp.rotateCertificate();
    const from = logs.lines.length;
    expect(reasonOf(await browser('alice').go('/api/sso/start?email=alice@ssp.test'))).toBe('invalid');
    expect(logSince(from)).toMatch(/signed with certificate SHA-256 [0-9A-F:]+ \(not one the connection holds\)/i);
    const refreshed = await admin(w, 'sso', 'refresh', 'ssp.test');
    expect(refreshed).toMatch(/certificates added: \S+; removed: \S+/);
    expectHandoff(await browser('alice').go('/api/sso/start?email=alice@ssp.test'));
    expect(await admin(w, 'sso', 'refresh', 'ssp.test')).toContain('nothing changed');
  });
});
