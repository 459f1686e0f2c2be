import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, useWorld } from './accounts-helpers.js';
import { acceptSsoTerms } from './sso-browser.js';
import { TestBrowser, type Landing } from './idp/browser.js';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from './idp/oidc.js';

const PUBLIC = 'http://localhost:8080';

/**
 * OpenID Connect single logout against panva's oidc-provider: our sign-out sends the browser to the
 * provider's end_session_endpoint with the ID token as id_token_hint; the provider's back-channel
 * logout token (posted to the server, listening on loopback) ends the sessions that sign-in made.
 */
describe('OpenID Connect single logout', () => {
  const w = useWorld();
  let op: TestOidcProvider;
  let backchannel = '';
  let listening = '';

  const exchange = (b: TestBrowser, landing: Landing) =>
    call(w.app, {
      method: 'POST',
      url: '/auth/handoff',
      body: { handoff: landing.url.searchParams.get('handoff') ?? '' },
      headers: { cookie: b.ourCookie() },
    });
  async function signIn(login: string): Promise<{ b: TestBrowser; token: string }> {
    const b = new TestBrowser(w.app, PUBLIC, { username: login, password: 'any' });
    const landing = await b.go(`/api/sso/start?email=${encodeURIComponent(login)}`);
    expect(landing.url.pathname, landing.url.href).toBe('/auth');
    const res = await exchange(b, landing);
    expect(res.statusCode, res.body).toBe(200);
    return { b, token: res.json().token as string };
  }
  const alive = async (token: string) =>
    (await call(w.app, { method: 'GET', url: '/v2/user/me', token })).statusCode === 200;
  /** Waits, bounded, for the provider's back-channel call to have ended the session. */
  async function endedWithin(token: string, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (!(await alive(token))) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  beforeAll(async () => {
    // The provider posts logout tokens to the server itself: it listens on loopback (this suite's range).
    await w.app.listen({ port: 0, host: '127.0.0.1' });
    listening = `http://127.0.0.1:${(w.app.server.address() as AddressInfo).port}`;
    const redirectUris: string[] = [];
    op = await startOidcProvider(redirectUris, {
      backchannelLogoutUri: () => backchannel,
      postLogoutRedirectUris: [`${PUBLIC}/user/login`],
    });
    await admin(w, ...ssoSetOidc('op.test', op));
    const shown = await admin(w, 'sso', 'show', 'op.test');
    const redirect = /redirect URI to register at the provider: (\S+)/.exec(shown)?.[1] ?? '';
    redirectUris.push(redirect);
    const registered = /back-channel logout URI to register: (\S+)/.exec(shown)?.[1] ?? '';
    expect(registered).toMatch(new RegExp(`^${PUBLIC}/api/sso/oidc/backchannel-logout/`));
    backchannel = registered.replace(PUBLIC, listening);
  });
  afterAll(async () => {
    await op?.stop();
  });

  it('our sign-out sends the browser to the provider with id_token_hint, and its session ends', async () => {
    const { b, token } = await signIn('grace@op.test');
    const out = await call(w.app, { method: 'POST', url: '/auth/logout', token });
    expect(out.statusCode, out.body).toBe(200);
    const url = new URL(out.json().logout_url as string);
    expect(url.href.startsWith(`${op.issuer}/session/end`)).toBe(true);
    expect(url.searchParams.get('id_token_hint')).toBe(op.seen.idTokens.at(-1));
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC}/user/login`);
    expect(await alive(token)).toBe(false);
    const back = await b.go(url.href);
    expect(back.url.href.startsWith(`${PUBLIC}/user/login`)).toBe(true);
    // The provider's session is over: the next sign-in in this browser asks for the password again.
    const asked = b.asked;
    expect((await b.go('/api/sso/start?email=grace@op.test')).url.pathname).toBe('/auth');
    expect(b.asked).toBe(asked + 1);
  });

  it('"sign out of all devices" ends every session here and sends this browser to the provider logout', async () => {
    const first = await signIn('ivy@op.test');
    const kept = await acceptSsoTerms(w, first.token);
    const { b, token } = await signIn('ivy@op.test');
    const out = await call(w.app, { method: 'POST', url: '/auth/logout-all', token });
    expect(out.statusCode, out.body).toBe(200);
    expect(await alive(token)).toBe(false);
    expect(await alive(kept)).toBe(false);
    const url = new URL(out.json().logout_url as string);
    expect(url.href.startsWith(`${op.issuer}/session/end`)).toBe(true);
    expect(url.searchParams.get('id_token_hint')).toBe(op.seen.idTokens.at(-1));
    expect((await b.go(url.href)).url.href.startsWith(`${PUBLIC}/user/login`)).toBe(true);
    const asked = b.asked;
    expect((await b.go('/api/sso/start?email=ivy@op.test')).url.pathname).toBe('/auth');
    expect(b.asked).toBe(asked + 1);
  });

  it('a logout at the provider ends the session that sign-in made here (back-channel logout)', async () => {
    const kept = await signIn('hedy@op.test');
    const { b, token } = await signIn('hedy@op.test');
    // The person signs out at the provider (not through us).
    const back = await b.go(`${op.issuer}/session/end`);
    expect(back.html).toContain('Sign-out Success');
    expect(await endedWithin(token, 10_000)).toBe(true);
    // The other browser's provider session was another one: its session here stays.
    expect(await alive(kept.token)).toBe(true);
  });

  it('a logout token that is not the provider’s ends nothing and is answered 400', async () => {
    const { token } = await signIn('joan@op.test');
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const claims = Buffer.from(
      JSON.stringify({
        iss: op.issuer,
        aud: op.clientId,
        sub: 'joan@op.test',
        iat: Math.floor(Date.now() / 1000),
        jti: 'x',
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      }),
    ).toString('base64url');
    const res = await fetch(backchannel, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: `${header}.${claims}.` }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await alive(token)).toBe(true);
  });
});
