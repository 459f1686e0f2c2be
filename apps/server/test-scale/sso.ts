import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider } from '../test/idp/drive.js';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from '../test/idp/oidc.js';
import { startSamlIdp, type TestSamlIdp } from '../test/idp/saml.js';
import { TestBrowser } from '../test/idp/browser.js';
import { simpleSamlPhpMissing, startSimpleSamlPhp } from '../test/idp/simplesamlphp.js';
import type { Instance } from './cluster.js';

/** What the scale-out suite's cluster gives these tests (read once its start is done). */
export interface SsoCluster {
  a: Instance;
  b: Instance;
  /** nginx's address, the instances' PUBLIC_URL. */
  publicUrl: string;
  /** The instances' settings (DATABASE_URL, SESSION_SECRET…), as the operator's admin CLI gets them. */
  env: Record<string, string>;
  /** The production install's server entry; the admin CLI is its bin/admin.js. */
  entry: string;
  dir: string;
}

const run = promisify(execFile);

/**
 * Single sign-on over two instances on one PostgreSQL and Redis: a sign-in started on one
 * instance returns to the other, and its hand-off is exchanged on the first. The pending requests
 * (OIDC state, PKCE verifier, nonce; SAML request IDs), the hand-offs and the SAML replay store are
 * shared, never an instance's memory. Connections are configured with the built admin CLI.
 */
export function ssoAcrossInstances(cluster: () => SsoCluster): void {
  describe('single sign-on across the two instances', () => {
    let c: SsoCluster;
    let op: TestOidcProvider;
    let idp: TestSamlIdp;
    /** Every answer of our instances in these tests, by address. */
    const answers: { url: string; status: number }[] = [];

    async function hit(url: string, init: RequestInit = {}): Promise<Response> {
      const res = await fetch(url, { redirect: 'manual', ...init });
      answers.push({ url, status: res.status });
      return res;
    }
    /** Where our 302 sends the browser. */
    const locationOf = (res: Response) => {
      expect(res.status, `${res.url} answered ${res.status}`).toBe(302);
      return new URL(res.headers.get('location') ?? '');
    };
    const start = (base: string, email: string) => hit(`${base}/api/sso/start?email=${encodeURIComponent(email)}`);
    const handoffOf = (res: Response) => {
      const target = locationOf(res);
      expect(`${target.origin}${target.pathname}`, target.href).toBe(`${c.publicUrl}/auth`);
      return target.searchParams.get('handoff') ?? '';
    };
    /** The hand-off exchanged on `base`; answers the session token. */
    /** The /auth page's exchange, with the binding cookie of the browser that started the sign-in. */
    async function exchange(base: string, handoff: string, binding: string): Promise<string> {
      const res = await hit(`${base}/api/auth/handoff`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: binding },
        body: JSON.stringify({ handoff }),
      });
      const body = (await res.json()) as { token?: string };
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.token ?? '';
    }
    /** /me through the balancer: the address the session belongs to. */
    async function meThroughNginx(token: string): Promise<string> {
      const res = await hit(`${c.publicUrl}/api/v2/user/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { email: string }).email;
    }
    const postAssertion = (base: string, samlResponse: string) =>
      hit(`${base}/api/sso/saml/acs`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
      });
    /** The built admin CLI of the production install, with the instances' database and secret. */
    async function admin(...argv: string[]): Promise<string> {
      const { stdout } = await run(process.execPath, [join(c.entry, '../../bin/admin.js'), ...argv], {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
          DATA_DIR: join(c.dir, 'admin'),
          DATABASE_URL: c.env.DATABASE_URL ?? '',
          SESSION_SECRET: c.env.SESSION_SECRET ?? '',
          PUBLIC_URL: c.publicUrl,
        },
      });
      return stdout;
    }

    beforeAll(async () => {
      c = cluster();
      const redirectUris: string[] = [];
      let backchannel = '';
      op = await startOidcProvider(redirectUris, { backchannelLogoutUri: () => backchannel });
      idp = await startSamlIdp(async () => (await fetch(`${c.a.url}/api/sso/saml/metadata`)).text());
      const oidc = await admin(...ssoSetOidc('oidc.test', op));
      const own = /redirect URI to register at the provider: (\S+)/.exec(oidc)?.[1] ?? '';
      expect(own.startsWith(`${c.publicUrl}/api/sso/oidc/callback/`)).toBe(true);
      redirectUris.push(own);
      backchannel = /back-channel logout URI to register: (\S+)/.exec(oidc)?.[1] ?? '';
      const metadata = join(c.dir, 'idp-metadata.xml');
      writeFileSync(metadata, idp.metadata);
      const saml = await admin('sso', 'set', 'saml.test', '--saml', '--metadata', metadata);
      expect(saml).toContain(`our assertion consumer service (HTTP-POST): ${c.publicUrl}/api/sso/saml/acs`);
    });
    afterAll(async () => {
      await op?.stop();
      await idp?.stop();
    });

    it('OpenID Connect: started on one instance, returned to the other, exchanged on the first', async () => {
      const started = await start(c.a.url, 'ada@oidc.test');
      const binding = (started.headers.getSetCookie().find((h) => h.startsWith('suite_sso=')) ?? '').split(';')[0];
      expect(binding).toMatch(/^suite_sso=./);
      // The provider sends the browser to PUBLIC_URL; here that request reaches instance b.
      const back = await signInAtProvider(locationOf(started).href, 'ada@oidc.test');
      expect(`${back.origin}${back.pathname}`).toMatch(new RegExp(`^${c.publicUrl}/api/sso/oidc/callback/[\\w-]+$`));
      const returned = await hit(`${c.b.url}${back.pathname}${back.search}`, { headers: { cookie: binding ?? '' } });
      const handoff = handoffOf(returned);
      // The hand-off is bound to the browser that started the sign-in, on either instance: without its
      // cookie the exchange only names the address to ask about.
      const unbound = await hit(`${c.b.url}/api/auth/handoff`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ handoff }),
      });
      expect(await unbound.json()).toEqual({ confirm_as: 'ada@oidc.test' });
      const token = await exchange(c.a.url, handoff, binding ?? '');
      expect(await meThroughNginx(token)).toBe('ada@oidc.test');
    });

    it('SAML: requested on one instance, asserted to the other, exchanged on the first; a replay is refused', async () => {
      const started = await start(c.a.url, 'grace@saml.test');
      const binding = (started.headers.getSetCookie().find((h) => h.startsWith('suite_sso=')) ?? '').split(';')[0];
      const requestId = await idp.requestIdOf(locationOf(started).href);
      const assertion = await idp.answer(requestId, { email: 'grace@saml.test' });
      const token = await exchange(c.a.url, handoffOf(await postAssertion(c.b.url, assertion)), binding ?? '');
      expect(await meThroughNginx(token)).toBe('grace@saml.test');
      // The same response posted to the other instance: it knows it was used.
      const replayed = locationOf(await postAssertion(c.a.url, assertion));
      expect(`${replayed.pathname}${replayed.search}`).toBe('/login-error-sso?reason=expired');
    });

    it('a fresh proof asked on one instance is answered on the other, for the session that asked', async () => {
      const started = await start(c.a.url, 'proof@oidc.test');
      const binding = (started.headers.getSetCookie().find((h) => h.startsWith('suite_sso=')) ?? '').split(';')[0];
      const back = await signInAtProvider(locationOf(started).href, 'proof@oidc.test');
      const returned = await hit(`${c.b.url}${back.pathname}${back.search}`, { headers: { cookie: binding ?? '' } });
      const welcome = await exchange(c.a.url, handoffOf(returned), binding ?? '');
      const registered = await hit(`${c.b.url}/api/sso/complete-register`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${welcome}` },
        body: JSON.stringify({ accepted_terms: { version: 1 } }),
      });
      expect(registered.status).toBe(200);
      const token = ((await registered.json()) as { token: string }).token;
      const asked = await hit(`${c.a.url}/api/sso/reauth`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(asked.status).toBe(200);
      const proofBinding = (asked.headers.getSetCookie().find((h) => h.startsWith('suite_sso=')) ?? '').split(';')[0];
      const url = new URL(((await asked.json()) as { url: string }).url);
      expect(url.searchParams.get('prompt')).toBe('login');
      const proofBack = await signInAtProvider(url.href, 'proof@oidc.test');
      const proved = locationOf(
        await hit(`${c.b.url}${proofBack.pathname}${proofBack.search}`, { headers: { cookie: proofBinding ?? '' } }),
      );
      expect(proved.href).toBe(`${c.publicUrl}/app`);
      // Its answer is used once, whichever instance gets the replay.
      const replayed = locationOf(
        await hit(`${c.a.url}${proofBack.pathname}${proofBack.search}`, { headers: { cookie: proofBinding ?? '' } }),
      );
      expect(`${replayed.pathname}${replayed.search}`).toBe('/login-error-sso?reason=expired');
    });

    it('a logout at the provider ends the session on both instances (back-channel logout through nginx)', async () => {
      const browser = new TestBrowser(null, c.publicUrl, { username: 'bye@oidc.test', password: 'any' });
      const landing = await browser.go('/api/sso/start?email=bye@oidc.test');
      expect(landing.url.pathname, landing.url.href).toBe('/auth');
      const token = await exchange(c.a.url, landing.url.searchParams.get('handoff') ?? '', browser.ourCookie());
      const me = (base: string) => hit(`${base}/api/v2/user/me`, { headers: { authorization: `Bearer ${token}` } });
      expect((await me(c.b.url)).status).toBe(200);
      // The person signs out at the provider; its logout token reaches whichever instance nginx picks.
      expect((await browser.go(`${op.issuer}/session/end`)).html).toContain('Sign-out Success');
      const until = Date.now() + 15_000;
      while ((await me(c.a.url)).status === 200 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect((await me(c.a.url)).status).toBe(401);
      expect((await me(c.b.url)).status).toBe(401);
    });

    // Debian's SimpleSAMLphp sends its LogoutRequest through the browser to PUBLIC_URL (nginx): whichever
    // instance takes it, the session must end on both.
    it.skipIf(simpleSamlPhpMissing() !== null)(
      'a SAML logout at the provider (SimpleSAMLphp) ends the session on both instances',
      async () => {
        const publicHost = new URL(c.publicUrl).host;
        const ssp = await startSimpleSamlPhp({
          users: [{ username: 'zoe', attributes: { uid: ['zoe'], email: ['zoe@ssp.test'] } }],
          returnHosts: [publicHost],
        });
        try {
          ssp.trustSp(await (await fetch(`${c.a.url}/api/sso/saml/metadata`)).text());
          const file = join(c.dir, 'ssp-metadata.xml');
          writeFileSync(file, await ssp.metadata());
          expect(await admin('sso', 'set', 'ssp.test', '--saml', '--metadata', file)).toContain(
            `IdP single logout: ${ssp.url}/saml2/idp/SingleLogoutService.php`,
          );
          const browser = new TestBrowser(null, c.publicUrl, { username: 'zoe', password: 'zoe' });
          const landing = await browser.go('/api/sso/start?email=zoe@ssp.test');
          expect(landing.url.pathname, landing.url.href).toBe('/auth');
          const token = await exchange(c.a.url, landing.url.searchParams.get('handoff') ?? '', browser.ourCookie());
          const me = (base: string) => hit(`${base}/api/v2/user/me`, { headers: { authorization: `Bearer ${token}` } });
          expect((await me(c.a.url)).status).toBe(200);
          expect((await me(c.b.url)).status).toBe(200);
          const back = await browser.go(ssp.logoutUrl(`${c.publicUrl}/user/login?from=idp`));
          expect(back.url.href).toBe(`${c.publicUrl}/user/login?from=idp`);
          expect((await me(c.a.url)).status).toBe(401);
          expect((await me(c.b.url)).status).toBe(401);
        } finally {
          await ssp.stop();
        }
      },
    );

    it('no answer of 500 or more across these sign-ins', () => {
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.filter((x) => x.status >= 500)).toEqual([]);
    });
  });
}
