/**
 * The adversarial suite, single sign-on part (docs/security.md): each finding of the identity-core review
 * replayed as the attacker did it, against real identity providers on loopback (two panva oidc-provider
 * instances: an honest customer's and a hostile customer's, and a samlify IdP), the real server
 * (app.inject) and the real database (SQLite, and PostgreSQL under scripts/with-pg.sh).
 */
import { inflateRawSync } from 'node:zlib';
import Sqlite from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { migrations } from '../src/db/migrations/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  call,
  decodeSession,
  expectError,
  registered,
  type AccountsWorld,
  startWorld,
} from './accounts-helpers.js';
import { signInAtProvider } from './idp/drive.js';
import {
  bindingOf,
  connectOidc,
  errorReason,
  handoffIn,
  SHARED_OIDC_CALLBACK,
  ssoBrowser,
  startSsoProviders,
} from './sso-browser.js';
import type { TestOidcProvider } from './idp/oidc.js';
import type { TestSamlIdp } from './idp/saml.js';

const ORIGIN = 'http://localhost:8080';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

let w: AccountsWorld;
let honest: TestOidcProvider;
let hostile: TestOidcProvider;
let idp: TestSamlIdp;
let providers: Awaited<ReturnType<typeof startSsoProviders>>;
const logLines: string[] = [];
const answers: LightMyRequestResponse[] = [];
const callbackOf: Record<string, string> = {};

const inject = async (options: Parameters<AccountsWorld['app']['inject']>[0]) => {
  const res = await w.app.inject(options);
  answers.push(res);
  return res;
};
const { start, callback, exchange, registeredSession, oidcRoundTrip, samlStart, samlPost } = ssoBrowser(
  () => w,
  inject,
  () => idp,
);
const handoffOf = (res: LightMyRequestResponse) => handoffIn(res, ORIGIN);
const users = async () => (await w.app.db.kysely.selectFrom('users').select('email').execute()).map((u) => u.email);

/** …and the /auth page's exchange in the same browser: the session. */
async function oidcSession(email: string, login = email): Promise<string> {
  const { res, cookie } = await oidcRoundTrip(email, login);
  const done = await exchange(handoffOf(res), cookie);
  expect(done.statusCode, done.body).toBe(200);
  return done.json().token as string;
}

beforeAll(async () => {
  const stream = { write: (line: string) => void logLines.push(line) };
  w = await startWorld({ ACCESS_LOG: 'true' }, { logger: { level: 'info', stream } });
  providers = await startSsoProviders(w);
  ({ honest, hostile, idp } = providers);
  Object.assign(callbackOf, providers.callbackOf);
  // The same honest provider also serves a Google-Workspace-like connection that names its hosted domain.
  callbackOf['workspace.test'] = await connectOidc(
    w,
    'workspace.test',
    honest,
    providers.uris.honest,
    '--hosted-domain',
    'workspace.test',
  );
  await admin(w, 'sso', 'set', 'saml.test', '--saml', '--metadata', providers.idpMetadata);
});
afterAll(async () => {
  await providers?.stop();
  await w?.close();
});

describe('F3 one anonymous SAML POST freezes the server', () => {
  it('a 247 KiB body of `<Response ` is refused by its size, on the error page', async () => {
    const xml = '<Response '.repeat(Math.ceil((247 * 1024) / 10));
    const res = await samlPost(Buffer.from(xml).toString('base64'));
    expect(errorReason(res)).toBe('invalid');
  });

  it('a body just under the limit, pathological for a backtracking regex, is answered as unsolicited', async () => {
    // ~60 KiB of base64 in the form: `<Response ` repeated with never a closing `>` nor InResponseTo.
    const xml = '<Response '.repeat(4600);
    const form = Buffer.from(xml).toString('base64');
    expect(form.length).toBeGreaterThan(59 * 1024);
    expect(new URLSearchParams({ SAMLResponse: form }).toString().length).toBeLessThan(64 * 1024);
    expect(errorReason(await samlPost(form))).toBe('expired');
    // Its variant with one unterminated InResponseTo value.
    const open = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" InResponseTo="${'x'.repeat(40_000)}`;
    expect(errorReason(await samlPost(Buffer.from(open).toString('base64')))).toBe('expired');
  });

  it('a genuine response is still read (its InResponseTo found in one pass)', async () => {
    const { requestId, cookie } = await samlStart('grace@saml.test');
    const res = await samlPost(await idp.answer(requestId, { email: 'grace@saml.test' }));
    expect((await exchange(handoffOf(res), cookie)).statusCode).toBe(200);
  });
});

describe('F13 OIDC mix-up across customers', () => {
  /**
   * The review's attack: the attacker starts a sign-in with the hostile customer's connection; the
   * hostile provider, instead of signing anyone in, sends the browser on to the honest provider with
   * that request's state, PKCE challenge and nonce, and the honest provider issues a code for the
   * victim to its registered redirect URI (the honest connection's own).
   */
  async function mixUp() {
    const started = await start('mallory@hostile.test');
    const cookie = bindingOf(started);
    const hostileAuth = new URL(String(started.headers.location));
    expect(hostileAuth.origin).toBe(new URL(hostile.issuer).origin);
    expect(hostileAuth.searchParams.get('redirect_uri')).toBe(callbackOf['hostile.test']);
    const forwarded = new URL(hostileAuth.pathname + hostileAuth.search, honest.issuer);
    forwarded.searchParams.set('redirect_uri', callbackOf['honest.test']!);
    forwarded.searchParams.set('login_hint', 'victim@honest.test');
    const back = await signInAtProvider(forwarded.href, 'victim@honest.test');
    expect(back.searchParams.get('code')).toBeTruthy();
    return { back, cookie };
  }

  it("the hostile flow never redeems the honest provider's code", async () => {
    const before = hostile.seen.tokenRequests + honest.seen.tokenRequests;
    // 1. As the honest provider sent it: to the honest connection's address, with the hostile state.
    let { back, cookie } = await mixUp();
    expect(`${back.origin}${back.pathname}`).toBe(callbackOf['honest.test']);
    expect(errorReason(await callback(back, cookie))).toBe('invalid');
    // 2. Moved to the hostile connection's address, the honest iss kept: not the pinned issuer.
    ({ back, cookie } = await mixUp());
    const moved = new URL(callbackOf['hostile.test']!);
    moved.search = back.search;
    expect(errorReason(await callback(moved, cookie))).toBe('invalid');
    // 3. …and without iss: the hostile provider announces it, so it is required.
    ({ back, cookie } = await mixUp());
    const bare = new URL(callbackOf['hostile.test']!);
    bare.search = back.search;
    bare.searchParams.delete('iss');
    expect(errorReason(await callback(bare, cookie))).toBe('invalid');
    // 4. On the old shared address: neither connection is served there any more.
    ({ back, cookie } = await mixUp());
    const shared = new URL(SHARED_OIDC_CALLBACK);
    shared.search = back.search;
    expect(errorReason(await callback(shared, cookie))).toBe('invalid');
    // No token endpoint was asked to redeem anything, and the victim has no account here.
    expect(hostile.seen.tokenRequests + honest.seen.tokenRequests).toBe(before);
    expect(await users()).not.toContain('victim@honest.test');
  });

  it('each connection has its own redirect URI, printed by `sso show`; an honest sign-in works', async () => {
    expect(callbackOf['honest.test']).not.toBe(callbackOf['hostile.test']);
    const shown = await admin(w, 'sso', 'show', 'honest.test');
    expect(shown).toContain(`redirect URI to register at the provider: ${callbackOf['honest.test']}`);
    expect(shown).not.toContain('old shared redirect URI');
    const token = await oidcSession('victim@honest.test');
    expect(decodeSession(token).user.email).toBe('victim@honest.test');
  });

  it('migration 012 gives an existing connection an id and leaves it on the shared redirect URI', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
      expect((await migrator.migrateTo('011-identity-core')).error).toBeUndefined();
      await sql`insert into sso_connections (domain, protocol, settings, secret, created_at, updated_at)
        values ('old.test', 'oidc', '{}', null, 1, 1)`.execute(db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const row = (
        await sql<{ id: string; shared_callback: number }>`select id, shared_callback from sso_connections`.execute(db)
      ).rows[0]!;
      expect(row.id).toMatch(/^[\w-]{12}$/);
      expect(Number(row.shared_callback)).toBe(1);
    } finally {
      await db.destroy();
    }
  });

  it('a connection made before keeps the shared redirect URI until the operator moves it', async () => {
    // As migration 012 leaves a connection that existed: on the shared address.
    await w.app.db.kysely
      .updateTable('sso_connections')
      .set({ shared_callback: 1 })
      .where('domain', '=', 'honest.test')
      .execute();
    const shown = await admin(w, 'sso', 'show', 'honest.test');
    expect(shown).toContain(`still answered on the old shared redirect URI ${SHARED_OIDC_CALLBACK}`);
    expect(shown).toContain('sso use-own-redirect-uri honest.test');
    // The provider still has the old address registered (as a real one would).
    const started = await start('victim@honest.test');
    expect(new URL(String(started.headers.location)).searchParams.get('redirect_uri')).toBe(SHARED_OIDC_CALLBACK);
    // A provider that did not register the shared address refuses to send the code there: this one has
    // only the connection's own, so the test stops at the URL the connection asks for, and a state of
    // the shared flow is not taken on the own address.
    const state = new URL(String(started.headers.location)).searchParams.get('state') ?? '';
    const elsewhere = new URL(callbackOf['honest.test']!);
    elsewhere.search = new URLSearchParams({ code: 'x', state, iss: honest.issuer }).toString();
    expect(errorReason(await callback(elsewhere, bindingOf(started)))).toBe('invalid');
    const moved = await admin(w, 'sso', 'use-own-redirect-uri', 'honest.test');
    expect(moved).not.toContain('old shared redirect URI');
    const after = await start('victim@honest.test');
    expect(new URL(String(after.headers.location)).searchParams.get('redirect_uri')).toBe(callbackOf['honest.test']);
  });
});

describe('F2 ID-token signatures are verified', () => {
  it('an ID token whose signature is broken is refused, and one whose claims were rewritten', async () => {
    try {
      honest.tamper.idToken = 'forge-signature';
      expect(errorReason((await oidcRoundTrip('forged@honest.test')).res)).toBe('invalid');
      honest.tamper.idToken = 'forge-claims';
      honest.tamper.email = 'ceo@honest.test';
      expect(errorReason((await oidcRoundTrip('intern@honest.test')).res)).toBe('invalid');
    } finally {
      honest.tamper.idToken = undefined;
      honest.tamper.email = undefined;
    }
    const made = await users();
    for (const email of ['forged@honest.test', 'ceo@honest.test', 'intern@honest.test'])
      expect(made).not.toContain(email);
  });
});

describe('F4 SAML Destination, Recipient and Issuer are checked', () => {
  it('a signed answer sent to another Destination, for another Recipient, or by another Issuer is refused', async () => {
    for (const wrong of [
      { destination: 'https://other.example/acs' },
      { recipient: 'https://other.example/acs' },
      { issuer: 'https://other-idp.example/metadata' },
    ]) {
      const { requestId } = await samlStart('grace@saml.test');
      expect(
        errorReason(await samlPost(await idp.answer(requestId, { email: 'grace@saml.test', ...wrong }))),
        JSON.stringify(wrong),
      ).toBe('invalid');
    }
  });
});

describe('F6 secrets of a sign-in never reach the log', () => {
  it('handoff, code, state and (on a failure) the ID token are not in any log line', async () => {
    const { res, back, cookie } = await oidcRoundTrip('logged@honest.test');
    const handoff = handoffOf(res);
    expect((await exchange(handoff, cookie)).statusCode).toBe(200);
    // The /auth page itself is requested with the hand-off in its address.
    await inject({ method: 'GET', url: `/auth?handoff=${handoff}` });
    const secrets = [handoff, back.searchParams.get('code')!, back.searchParams.get('state')!];
    try {
      honest.tamper.idToken = 'forge-signature';
      const failed = await oidcRoundTrip('logged@honest.test');
      expect(errorReason(failed.res)).toBe('invalid');
      secrets.push(failed.back.searchParams.get('code')!, failed.back.searchParams.get('state')!);
      const idToken = honest.seen.idTokens.at(-1)!;
      secrets.push(idToken, idToken.split('.')[2]!);
    } finally {
      honest.tamper.idToken = undefined;
    }
    const all = logLines.join('\n');
    expect(all).toContain('sso: sign-in refused');
    expect(all).toContain('/api/sso/oidc/callback');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(all).not.toContain(secret);
      expect(all).not.toContain(encodeURIComponent(secret));
    }
  });
});

describe('F10 a non-canonical SSO address is refused, not matched', () => {
  it("KELVIN SIGN `\\u212Aate@…` does not sign into Kate's account", async () => {
    const kate = await registered(w, 'kate@honest.test');
    honest.accounts.set('kelvin', { email: '\u212Aate@honest.test' });
    const { res } = await oidcRoundTrip('kate@honest.test', 'kelvin');
    expect(errorReason(res)).toBe('invalid');
    const sessions = await w.app.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', kate.id)
      .where('method', '=', 'sso')
      .execute();
    expect(sessions).toEqual([]);
  });
});

describe('F14 the Google hosted domain is checked', () => {
  it('a connection naming a hosted domain refuses an account of another Workspace, or of none', async () => {
    honest.accounts.set('outsider@workspace.test', { hd: 'gmail.example' });
    expect(errorReason((await oidcRoundTrip('outsider@workspace.test')).res)).toBe('foreign');
    honest.accounts.set('nohd@workspace.test', {});
    expect(errorReason((await oidcRoundTrip('nohd@workspace.test')).res)).toBe('foreign');
    honest.accounts.set('member@workspace.test', { hd: 'workspace.test' });
    expect(decodeSession(await oidcSession('member@workspace.test')).user.email).toBe('member@workspace.test');
    expect(await users()).not.toContain('outsider@workspace.test');
  });
});

describe('The same person, not just the same address', () => {
  it('OIDC: the address given to another subject later is refused with its own reason', async () => {
    honest.accounts.set('alice-original', { email: 'alice@honest.test' });
    honest.accounts.set('alice-successor', { email: 'alice@honest.test' });
    const first = await oidcSession('alice@honest.test', 'alice-original');
    expect(errorReason((await oidcRoundTrip('alice@honest.test', 'alice-successor')).res)).toBe('other-person');
    // The original person still signs in, into the same account.
    const again = await oidcSession('alice@honest.test', 'alice-original');
    expect(decodeSession(again).user._id).toBe(decodeSession(first).user._id);
  });

  it('SAML: a persistent NameID is pinned; a transient one is matched by address', async () => {
    let s = await samlStart('bob@saml.test');
    const ok = await samlPost(
      await idp.answer(s.requestId, { email: 'bob@saml.test', nameId: 'p-bob', nameIdFormat: PERSISTENT }),
    );
    expect((await exchange(handoffOf(ok), s.cookie)).statusCode).toBe(200);
    s = await samlStart('bob@saml.test');
    const other = await samlPost(
      await idp.answer(s.requestId, { email: 'bob@saml.test', nameId: 'p-someone-else', nameIdFormat: PERSISTENT }),
    );
    expect(errorReason(other)).toBe('other-person');
    // A transient NameID changes at every sign-in: it cannot be pinned (the address decides).
    s = await samlStart('bob@saml.test');
    const transient = await samlPost(
      await idp.answer(s.requestId, { email: 'bob@saml.test', nameId: '_t-123', nameIdFormat: TRANSIENT }),
    );
    expect((await exchange(handoffOf(transient), s.cookie)).statusCode).toBe(200);
  });
});

describe('Seats: a first SSO sign-in respects the free plan', () => {
  it('with 2 of 2 seats taken a third account is not made, and the error page says why', async () => {
    // The same IdP serves seats.test: a further domain of its one connection.
    await admin(w, 'sso', 'set', 'saml.test', '--saml', '--metadata', providers.idpMetadata, '--domains', 'seats.test');
    await admin(w, 'domain', 'set', 'seats.test', '--free-limit', '2');
    for (const email of ['one@seats.test', 'two@seats.test']) {
      const s = await samlStart(email);
      expect(
        (await exchange(handoffOf(await samlPost(await idp.answer(s.requestId, { email }))), s.cookie)).statusCode,
      ).toBe(200);
    }
    const s = await samlStart('three@seats.test');
    expect(errorReason(await samlPost(await idp.answer(s.requestId, { email: 'three@seats.test' })))).toBe('no-seats');
    expect((await users()).filter((e) => e.endsWith('@seats.test')).sort()).toEqual([
      'one@seats.test',
      'two@seats.test',
    ]);
    // Someone who has a seat still signs in.
    const again = await samlStart('one@seats.test');
    expect(handoffOf(await samlPost(await idp.answer(again.requestId, { email: 'one@seats.test' })))).toBeTruthy();
  });
});

describe('F5 login CSRF through the hand-off', () => {
  it("an auto-posted SAML response of the attacker's own sign-in gives the victim's browser no session unasked", async () => {
    // The attacker starts a sign-in in their own browser and keeps the IdP's answer…
    const attacker = await samlStart('attacker@saml.test');
    const signed = await idp.answer(attacker.requestId, { email: 'attacker@saml.test' });
    // …which a third-party page auto-posts from the victim's browser (no binding cookie there).
    const handoff = handoffOf(await samlPost(signed));
    const asked = await exchange(handoff, '');
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ confirm_as: 'attacker@saml.test' });
    // The question used nothing up; the victim's browser with another sign-in's cookie is asked too.
    const victim = await start('victim@honest.test');
    expect((await exchange(handoff, bindingOf(victim))).json()).toEqual({ confirm_as: 'attacker@saml.test' });
    // Only an explicit "Continue" makes the session.
    const yes = await exchange(handoff, '', true);
    expect(yes.statusCode).toBe(200);
    expect(decodeSession(yes.json().token).user.email).toBe('attacker@saml.test');
  });

  it('an OIDC hand-off link is bound to the browser that started it; the cookie covers the exchange', async () => {
    const started = await start('linked@honest.test');
    const cookieLine = String([started.headers['set-cookie']].flat().find((c) => String(c).startsWith('suite_sso=')));
    expect(cookieLine).toMatch(/Path=\/api(;|$)/);
    expect(cookieLine).toMatch(/HttpOnly/);
    expect(cookieLine).toMatch(/SameSite=Lax/);
    const back = await signInAtProvider(String(started.headers.location), 'linked@honest.test');
    const handoff = handoffOf(await callback(back, bindingOf(started)));
    // The link, opened elsewhere: a question, not a session.
    expect((await exchange(handoff, '')).json()).toEqual({ confirm_as: 'linked@honest.test' });
    const own = await exchange(handoff, bindingOf(started));
    expect(own.statusCode).toBe(200);
    expect(own.json().token).toBeTruthy();
    expectError(await exchange(handoff, bindingOf(started)), 401, 'ERR_HANDOFF_INVALID');
  });
});

describe('Fresh proof for SSO accounts (POST /api/sso/reauth)', () => {
  const sessionRow = async (token: string) => {
    const { user } = decodeSession(token);
    return w.app.db.kysely
      .selectFrom('sessions')
      .select(['id', 'proved_at', 'amr'])
      .where('user_id', '=', user._id)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
  };

  it('OIDC: max_age=0 and prompt=login; the same subject marks this session proved, no new session', async () => {
    honest.accounts.set('reauth-sub', { email: 'reauth@honest.test' });
    const token = await registeredSession(await oidcSession('reauth@honest.test', 'reauth-sub'));
    const before = await sessionRow(token);
    const asked = await call(w.app, { method: 'POST', url: '/sso/reauth', token });
    expect(asked.statusCode, asked.body).toBe(200);
    const url = new URL(asked.json().url as string);
    expect(url.searchParams.get('max_age')).toBe('0');
    expect(url.searchParams.get('prompt')).toBe('login');
    const back = await signInAtProvider(url.href, 'reauth-sub');
    const done = await callback(back, bindingOf(asked));
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe(`${ORIGIN}/app`);
    const after = await sessionRow(token);
    expect(after.id).toBe(before.id);
    expect(Number(after.proved_at)).toBeGreaterThan(Number(before.proved_at ?? 0));
    expect(after.amr.split(',')).toContain('sso');
    // Another subject with the same address proves nothing.
    honest.accounts.set('reauth-impostor', { email: 'reauth@honest.test' });
    const again = await call(w.app, { method: 'POST', url: '/sso/reauth', token });
    const impostor = await signInAtProvider(String(again.json().url), 'reauth-impostor');
    expect(errorReason(await callback(impostor, bindingOf(again)))).toBe('other-person');
    expect(Number((await sessionRow(token)).proved_at)).toBe(Number(after.proved_at));
  });

  it('SAML: ForceAuthn is asked; the answer marks the session proved', async () => {
    const s = await samlStart('carol@saml.test');
    const session = await exchange(
      handoffOf(await samlPost(await idp.answer(s.requestId, { email: 'carol@saml.test' }))),
      s.cookie,
    );
    const token = await registeredSession(session.json().token as string);
    const asked = await call(w.app, { method: 'POST', url: '/sso/reauth', token });
    expect(asked.statusCode, asked.body).toBe(200);
    const request = inflateRawSync(
      Buffer.from(new URL(asked.json().url as string).searchParams.get('SAMLRequest') ?? '', 'base64'),
    ).toString();
    expect(request).toContain('ForceAuthn="true"');
    const before = await sessionRow(token);
    const requestId = await idp.requestIdOf(String(asked.json().url));
    // The IdP's cross-site POST brings no binding cookie: it goes on to the /auth page, whose same-origin
    // exchange, with the cookie of the browser that asked, marks this session proved (no new session).
    const done = await samlPost(await idp.answer(requestId, { email: 'carol@saml.test' }));
    const handoff = handoffOf(done);
    expect(Number((await sessionRow(token)).proved_at)).toBe(Number(before.proved_at ?? 0));
    const exchanged = await exchange(handoff, bindingOf(asked));
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(exchanged.json()).toEqual({ proved: true });
    const after = await sessionRow(token);
    expect(after.id).toBe(before.id);
    expect(Number(after.proved_at)).toBeGreaterThan(Number(before.proved_at ?? 0));
    expect(after.amr.split(',')).toContain('sso');
    expectError(await exchange(handoff, bindingOf(asked)), 401, 'ERR_HANDOFF_INVALID');
    // An answer that does not say when the person authenticated, or says long before the request, is
    // no fresh sign-in.
    for (const authnInstantS of [null, -3600]) {
      const again = await call(w.app, { method: 'POST', url: '/sso/reauth', token });
      const againId = await idp.requestIdOf(String(again.json().url));
      expect(errorReason(await samlPost(await idp.answer(againId, { email: 'carol@saml.test', authnInstantS })))).toBe(
        'invalid',
      );
    }
    // Someone else's assertion does not prove this session.
    const other = await call(w.app, { method: 'POST', url: '/sso/reauth', token });
    const otherId = await idp.requestIdOf(String(other.json().url));
    expect(errorReason(await samlPost(await idp.answer(otherId, { email: 'dave@saml.test' })))).toBe('other-person');
  });

  it('without a session it is refused', async () => {
    expectError(await call(w.app, { method: 'POST', url: '/sso/reauth' }), 401, 'ERR_INVALID_ACCESS_TOKEN');
  });
});

describe('every answer above', () => {
  it('was never a 500', () => {
    expect(answers.length).toBeGreaterThan(40);
    expect(answers.filter((a) => a.statusCode >= 500)).toEqual([]);
  });
});
