import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCESS_APPROVAL_TTL_MS, ACCESS_REQUEST_MAILS_PER_DOMAIN, ADMIN_API, API, apiPath } from '@suite/contract';
import {
  PASSWORD,
  addDomainAdmin,
  admin,
  call,
  decodeSession,
  expectError,
  freshened,
  mailTo,
  outboxDrained,
  registered,
  removeDomainAdmin,
  runAdminCli,
  sessionCalls,
  staled,
  turnOnTotp,
  useWorld,
} from './accounts-helpers.js';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import { insertSignedInUser, logCapture } from './helpers.js';
import { testCa } from './idp/ca.js';
import { signInAtProvider } from './idp/drive.js';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from './idp/oidc.js';
import { startSamlIdp, type TestSamlIdp } from './idp/saml.js';
import { bindingOf, errorReason, handoffIn } from './sso-browser.js';

/**
 * Fresh eyes on the domain administrator's console and the IT-team single sign-on: each `it` is an
 * attack by an outsider, another tenant (a person or an administrator of another domain) or a hostile
 * identity provider, against a real server and database, real mail and real IdPs. A refused attack is a
 * passing test; one that gets through is a failing test asserting what the product should have done.
 */

const path = apiPath;

describe('adversarial review: the domain administrator console', () => {
  const logs = logCapture();
  const w = useWorld({}, { logger: { level: 'info', stream: logs.stream } });
  let boss: { token: string; id: string };
  let ana: { token: string; id: string };
  let mallory: { token: string; id: string };
  let eve: { token: string; id: string };

  const { get, post, put } = sessionCalls(w);
  const alive = async (token: string) => (await get(API.me, token)).statusCode === 200;
  async function login(email: string): Promise<LightMyRequestResponse> {
    return call(w.app, { method: 'POST', url: API.login, body: { login: email, password: PASSWORD } });
  }
  async function session(email: string): Promise<string> {
    const res = await login(email);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  }
  /** The approve/refuse link mailed to `to` for `requester` (its token), after `before` mails. */
  async function linkFor(to: string, requester: string, before: number): Promise<string> {
    const mail = await w.smtp.waitFor(
      (m) => w.smtp.messages.indexOf(m) >= before && m.to.includes(to) && m.text.includes(requester),
    );
    const token = /#token=(\S+)/.exec(mail.text)?.[1];
    expect(token, mail.text).toBeTruthy();
    return token ?? '';
  }
  const decideByLink = (token: string, decision: 'approve' | 'refuse') =>
    call(w.app, { method: 'POST', url: API.accessRequestDecide, body: { token, decision } });
  const requestOf = (email: string) =>
    w.app.db.kysely.selectFrom('access_requests').selectAll().where('email', '=', email).executeTakeFirst();

  beforeAll(async () => {
    boss = await registered(w, 'boss@acme-corp.com');
    ana = await registered(w, 'ana@acme-corp.com');
    mallory = await registered(w, 'mallory@acme-corp.com');
    eve = await registered(w, 'eve@evil-corp.com');
    await admin(w, 'domain', 'admin', 'add', 'acme-corp.com', 'boss@acme-corp.com');
    await admin(w, 'domain', 'admin', 'add', 'evil-corp.com', 'eve@evil-corp.com');
  }, 90_000);

  it('another domain’s admin reaches none of our people, requests, policy or trail (by domain, id or filter)', async () => {
    const acme = { domain: 'acme-corp.com' };
    for (const url of [
      path(ADMIN_API.adminPeople, acme),
      path(ADMIN_API.adminPerson, { id: ana.id }),
      path(ADMIN_API.adminAudit, acme),
      path(ADMIN_API.adminAuditExport, acme),
      path(ADMIN_API.adminRequests, acme),
      path(ADMIN_API.adminSecurityPolicy, acme),
      path(ADMIN_API.adminSignupRules, acme),
      path(ADMIN_API.adminAdmins, acme),
    ]) {
      const res = await get(url, eve.token);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
    }
    // Acting on our person by id, or on our domain's policy by its name: 404, and nothing changes.
    expectError(await post(path(ADMIN_API.adminPersonDeactivate, { id: ana.id }), eve.token), 404, 'ERR_NOT_FOUND');
    expectError(await post(path(ADMIN_API.adminPersonEndSessions, { id: ana.id }), eve.token), 404, 'ERR_NOT_FOUND');
    expectError(
      await put(path(ADMIN_API.adminSecurityPolicy, acme), eve.token, { session_idle_ms: 15 * 60_000 }),
      404,
      'ERR_NOT_FOUND',
    );
    expect(await alive(ana.token)).toBe(true);
    // Its own trail filtered by our people (address or id) shows nothing of ours.
    const evil = { domain: 'evil-corp.com' };
    for (const person of ['ana@acme-corp.com', ana.id, 'boss@acme-corp.com', boss.id]) {
      const page = await get(`${path(ADMIN_API.adminAudit, evil)}?person=${encodeURIComponent(person)}`, eve.token);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().events).toEqual([]);
      const csv = await get(
        `${path(ADMIN_API.adminAuditExport, evil)}?person=${encodeURIComponent(person)}`,
        eve.token,
      );
      expect(csv.statusCode).toBe(200);
      expect(csv.body.trim().split('\r\n')).toHaveLength(1);
    }
  });

  it('another domain’s admin cannot grant themself, nor be granted, on our domain', async () => {
    expectError(await addDomainAdmin(w, eve.token, 'acme-corp.com', 'eve@evil-corp.com'), 404, 'ERR_NOT_FOUND');
    expectError(
      await addDomainAdmin(w, boss.token, 'acme-corp.com', 'eve@evil-corp.com'),
      400,
      'ERR_ADMIN_NOT_IN_DOMAIN',
    );
    expectError(await removeDomainAdmin(w, eve.token, 'acme-corp.com', boss.id), 404, 'ERR_NOT_FOUND');
    expect((await get(ADMIN_API.adminMe, eve.token)).json()).toEqual({
      domains: [{ domain: 'evil-corp.com', via: 'operator' }],
    });
  });

  it('a person of the domain who is not its admin gets 404 everywhere in the console', async () => {
    const acme = { domain: 'acme-corp.com' };
    expectError(await get(path(ADMIN_API.adminPeople, acme), mallory.token), 404, 'ERR_NOT_FOUND');
    expectError(await post(path(ADMIN_API.adminPersonDeactivate, { id: ana.id }), mallory.token), 404, 'ERR_NOT_FOUND');
    expectError(await addDomainAdmin(w, mallory.token, 'acme-corp.com', 'mallory@acme-corp.com'), 404, 'ERR_NOT_FOUND');
    expectError(await get(ADMIN_API.adminMe, mallory.token), 404, 'ERR_NOT_FOUND');
  });

  it('an admin whose proof is stale (a stolen idle session) cannot act, only read', async () => {
    await staled(w, boss.token);
    try {
      expectError(
        await post(path(ADMIN_API.adminPersonDeactivate, { id: ana.id }), boss.token),
        403,
        'ERR_PROOF_REQUIRED',
      );
      expectError(
        await addDomainAdmin(w, boss.token, 'acme-corp.com', 'mallory@acme-corp.com'),
        403,
        'ERR_PROOF_REQUIRED',
      );
      expectError(
        await put(path(ADMIN_API.adminSecurityPolicy, { domain: 'acme-corp.com' }), boss.token, {
          session_idle_ms: 15 * 60_000,
        }),
        403,
        'ERR_PROOF_REQUIRED',
      );
      expect(await alive(ana.token)).toBe(true);
      expect((await get(path(ADMIN_API.adminPeople, { domain: 'acme-corp.com' }), boss.token)).statusCode).toBe(200);
    } finally {
      await freshened(w, boss.token);
    }
  });

  it('the last admin cannot remove themself; a free-mail person cannot claim a domain; TXT values differ per person', async () => {
    expectError(await removeDomainAdmin(w, boss.token, 'acme-corp.com', boss.id), 409, 'ERR_ADMIN_LAST');
    const gmail = await insertSignedInUser(w.app, { email: 'someone@gmail.com', first: 'Some', last: 'One' });
    expectError(await get(ADMIN_API.adminClaim, gmail.token), 403, 'ERR_CLAIM_NOT_ALLOWED');
    const mine = (await get(ADMIN_API.adminClaim, mallory.token)).json();
    const hers = (await get(ADMIN_API.adminClaim, ana.token)).json();
    expect(mine.domain).toBe('acme-corp.com');
    expect(mine.record_value).not.toBe(hers.record_value);
    // The value is bound to the domain too: the same person's value for another domain is another one
    // (checked through eve, whose domain differs).
    expect((await get(ADMIN_API.adminClaim, eve.token)).json().record_value).not.toBe(mine.record_value);
  });

  it('a deactivated person is out by password, existing session and mail recovery; reactivation revives no old session', async () => {
    const dave = await registered(w, 'dave@acme-corp.com');
    const done = await post(path(ADMIN_API.adminPersonDeactivate, { id: dave.id }), boss.token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().person.status).toBe('deactivated');
    expect(await alive(dave.token)).toBe(false);
    expectError(await login('dave@acme-corp.com'), 403, 'ERR_USER_NOT_ACTIVE');
    // Mail recovery: no code goes out for a deactivated account.
    await outboxDrained(w);
    const before = w.smtp.messages.length;
    const forgot = await call(w.app, {
      method: 'POST',
      url: API.forgotPassword,
      body: { email: 'dave@acme-corp.com' },
    });
    expect(forgot.statusCode).toBe(200);
    await outboxDrained(w);
    expect(w.smtp.messages.slice(before).filter((m) => m.to.includes('dave@acme-corp.com'))).toEqual([]);
    // Reactivated: the old session stays dead; a new sign-in works.
    expect((await post(path(ADMIN_API.adminPersonReactivate, { id: dave.id }), boss.token)).statusCode).toBe(200);
    expect(await alive(dave.token)).toBe(false);
    expect(await alive(await session('dave@acme-corp.com'))).toBe(true);
  });

  it('deactivated between the password and the authenticator code (or a recovery code): no session', async () => {
    const tom = await registered(w, 'tom@acme-corp.com');
    const { secret, recovery } = await turnOnTotp(w, tom.token);
    const first = await login('tom@acme-corp.com');
    expect(first.statusCode, first.body).toBe(200);
    const pending = first.json().pending_token as string;
    expect(pending).toBeTruthy();
    const off = await post(path(ADMIN_API.adminPersonDeactivate, { id: tom.id }), boss.token);
    expect(off.statusCode, off.body).toBe(200);
    for (const code of [await currentCode(secret), recovery[0] ?? '']) {
      const res = await call(w.app, {
        method: 'POST',
        url: API.secondStep,
        body: { email: 'tom@acme-corp.com', pending_token: pending, code },
      });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().token).toBeUndefined();
    }
    expect(await alive(tom.token)).toBe(false);
  });

  it('another domain’s admin cannot decide our access request by id', async () => {
    await put(path(ADMIN_API.adminSignupRules, { domain: 'acme-corp.com' }), boss.token, { mode: 'approval' });
    const res = await call(w.app, { method: 'POST', url: API.signup, body: { email: 'hopeful@acme-corp.com' } });
    expectError(res, 403, 'ERR_SIGNUP_APPROVAL_PENDING');
    const request = await requestOf('hopeful@acme-corp.com');
    expect(request?.status).toBe('pending');
    expectError(await post(path(ADMIN_API.adminRequestApprove, { id: request!.id }), eve.token), 404, 'ERR_NOT_FOUND');
    expectError(
      await post(path(ADMIN_API.adminRequestApprove, { id: request!.id }), mallory.token),
      404,
      'ERR_NOT_FOUND',
    );
    expect((await requestOf('hopeful@acme-corp.com'))?.status).toBe('pending');
  });

  it('approve links: forged MAC, admin id swapped, another request’s secret, replay — all refused', async () => {
    const before = w.smtp.messages.length;
    const res = await call(w.app, { method: 'POST', url: API.signup, body: { email: 'second@acme-corp.com' } });
    expectError(res, 403, 'ERR_SIGNUP_APPROVAL_PENDING');
    const token = await linkFor('boss@acme-corp.com', 'second@acme-corp.com', before);
    const [secret, adminId, mac] = token.split('.') as [string, string, string];
    expect(adminId).toBe(boss.id);
    // The MAC binds the secret to the admin: another admin id (eve's, another domain's) with it fails.
    expectError(await decideByLink(`${secret}.${eve.id}.${mac}`, 'approve'), 400, 'ERR_REQUEST_LINK_INVALID');
    expectError(
      await decideByLink(`${secret}.${boss.id}.${mac.slice(0, -2)}AA`, 'approve'),
      400,
      'ERR_REQUEST_LINK_INVALID',
    );
    expectError(await decideByLink(`${secret}x.${boss.id}.${mac}`, 'approve'), 400, 'ERR_REQUEST_LINK_INVALID');
    expect((await requestOf('second@acme-corp.com'))?.status).toBe('pending');
    const ok = await decideByLink(token, 'refuse');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().request).toMatchObject({ status: 'refused', decided_by: 'boss@acme-corp.com' });
    expectError(await decideByLink(token, 'approve'), 400, 'ERR_REQUEST_LINK_INVALID');
    expect((await requestOf('second@acme-corp.com'))?.status).toBe('refused');
  });

  it('an admin removed from the domain can no longer use the links mailed to them', async () => {
    const fresh = await addDomainAdmin(w, boss.token, 'acme-corp.com', 'ana@acme-corp.com');
    expect(fresh.statusCode, fresh.body).toBe(200);
    const before = w.smtp.messages.length;
    await call(w.app, { method: 'POST', url: API.signup, body: { email: 'third@acme-corp.com' } });
    const token = await linkFor('ana@acme-corp.com', 'third@acme-corp.com', before);
    const removed = await removeDomainAdmin(w, boss.token, 'acme-corp.com', ana.id);
    expect(removed.statusCode, removed.body).toBe(200);
    expectError(await decideByLink(token, 'approve'), 400, 'ERR_REQUEST_LINK_INVALID');
    expect((await requestOf('third@acme-corp.com'))?.status).toBe('pending');
  });

  it('an admin who was DEACTIVATED can no longer approve access from a link mailed to them', async () => {
    const granted = await addDomainAdmin(w, boss.token, 'acme-corp.com', 'mallory@acme-corp.com');
    expect(granted.statusCode, granted.body).toBe(200);
    const before = w.smtp.messages.length;
    await call(w.app, { method: 'POST', url: API.signup, body: { email: 'fourth@acme-corp.com' } });
    const token = await linkFor('mallory@acme-corp.com', 'fourth@acme-corp.com', before);
    // Mallory leaves the company: the admin deactivates her account (her sessions end)...
    const off = await post(path(ADMIN_API.adminPersonDeactivate, { id: mallory.id }), boss.token);
    expect(off.statusCode, off.body).toBe(200);
    expect(await alive(mallory.token)).toBe(false);
    // ...but the link in her (forwarded, or still synced) mailbox must not let her let people in.
    const res = await decideByLink(token, 'approve');
    expect({ status: res.statusCode, code: res.json().error_code }).toEqual({
      status: 400,
      code: 'ERR_REQUEST_LINK_INVALID',
    });
    expect((await requestOf('fourth@acme-corp.com'))?.status).toBe('pending');
  });

  it('the audit CSV neutralises formula cells (=, +, -, @) an invited address could carry', async () => {
    const invited = await post(path(ADMIN_API.adminInvitations, { domain: 'acme-corp.com' }), boss.token, {
      text: '=1+2@acme-corp.com, -2+3@acme-corp.com, +sum@acme-corp.com',
    });
    expect(invited.statusCode, invited.body).toBe(200);
    expect(invited.json().invited).toHaveLength(3);
    const csv = await get(
      `${path(ADMIN_API.adminAuditExport, { domain: 'acme-corp.com' })}?kind=admin_action`,
      boss.token,
    );
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.trim().split('\r\n').slice(1);
    const cells = rows.flatMap((r) => r.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? []).map((c) => c.replace(/,$/, ''));
    const bare = cells.map((c) => (c.startsWith('"') ? c.slice(1, -1).replace(/""/g, '"') : c));
    expect(bare.filter((c) => c.includes('@acme-corp.com') && /^[=+-]/.test(c.replace(/^'/, '')))).toHaveLength(3);
    expect(bare.filter((c) => /^[-=+@\t\r]/.test(c))).toEqual([]);
  });

  it('"Ask for access" answers alike for a domain with admins, without, and a free-mail one', async () => {
    const ask = (email: string, ip: string) =>
      w.app.inject({
        method: 'POST',
        url: `/api${API.accessRequests}`,
        remoteAddress: ip,
        payload: { email, reason: 'domain_inactive' },
      });
    const answers = await Promise.all([
      ask('x1@acme-corp.com', '10.9.0.1'),
      ask('x1@nobody-admins-it.com', '10.9.0.2'),
      ask('x1@gmail.com', '10.9.0.3'),
    ]);
    const shapes = answers.map((a) => ({ status: a.statusCode, body: a.body, headers: Object.keys(a.headers).sort() }));
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
  });

  it('an outsider’s "Ask for access" message cannot put a link or markup into the administrators’ mail', async () => {
    const before = w.smtp.messages.length;
    const res = await w.app.inject({
      method: 'POST',
      url: `/api${API.accessRequests}`,
      remoteAddress: '10.9.1.1',
      payload: {
        email: 'phisher@acme-corp.com',
        reason: 'invite_only',
        message: '<a href="https://evil.example/approve">Approve here</a><img src="https://evil.example/t.png">',
      },
    });
    expect(res.statusCode).toBe(202);
    const mail = await w.smtp.waitFor(
      (m) => w.smtp.messages.indexOf(m) >= before && m.to.includes('boss@acme-corp.com') && m.text.includes('phisher'),
    );
    expect(mail.html).not.toMatch(/<a[^>]+evil\.example/);
    expect(mail.html).not.toMatch(/<img[^>]+evil\.example/);
    expect(mail.subject).not.toContain('phisher');
  });

  it('an outsider cannot silence a domain’s "Ask for access" by spamming it with made-up addresses', async () => {
    // 30 made-up addresses of the domain, from a handful of addresses (under the per-IP limit).
    for (let i = 0; i < 30; i++) {
      const res = await w.app.inject({
        method: 'POST',
        url: `/api${API.accessRequests}`,
        remoteAddress: `10.7.0.${i % 5}`,
        payload: { email: `spam${i}@acme-corp.com`, reason: 'sso_unavailable' },
      });
      expect(res.statusCode).toBe(202);
    }
    const before = w.smtp.messages.length;
    const real = await w.app.inject({
      method: 'POST',
      url: `/api${API.accessRequests}`,
      remoteAddress: '10.8.0.1',
      payload: { email: 'real.person@acme-corp.com', reason: 'sso_unavailable', message: 'I am new in sales' },
    });
    expect(real.statusCode).toBe(202);
    // The real colleague's request must still reach the administrators.
    expect(await requestOf('real.person@acme-corp.com')).toBeDefined();
    await mailTo(w.smtp, 'boss@acme-corp.com', before);
  });

  it('no session token, link token or code shows up in the log or the audit trail', async () => {
    const text = logs.lines.join('');
    for (const token of [boss.token, ana.token, eve.token]) expect(text).not.toContain(token.split('.')[2]);
    expect(text).not.toContain('#token=');
    const links = w.smtp.messages.flatMap((m) => /#token=(\S+)/.exec(m.text)?.[1] ?? []);
    expect(links.length).toBeGreaterThan(0);
    const trail = await w.app.db.kysely.selectFrom('audit_events').select(['details', 'reason']).execute();
    for (const link of links) {
      const [secret, , mac] = link.split('.') as [string, string, string];
      expect(text).not.toContain(secret);
      expect(text).not.toContain(mac);
      expect(JSON.stringify(trail)).not.toContain(secret);
    }
  });
});

describe('adversarial review: hostile identity providers and single logout', () => {
  const w = useWorld();
  let op: TestOidcProvider;
  let idp: TestSamlIdp;
  const redirectUris: string[] = [];

  const alive = async (token: string) => (await call(w.app, { method: 'GET', url: API.me, token })).statusCode === 200;

  async function oidcReturn(email: string, login = email) {
    const started = await w.app.inject({ method: 'GET', url: `/api/sso/start?email=${encodeURIComponent(email)}` });
    expect(started.statusCode, started.body).toBe(302);
    const back = await signInAtProvider(String(started.headers.location), login);
    const res = await w.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: bindingOf(started) },
    });
    return { res, cookie: bindingOf(started) };
  }

  async function samlSession(email: string): Promise<string> {
    const started = await w.app.inject({ method: 'GET', url: `/api/sso/start?email=${encodeURIComponent(email)}` });
    expect(started.statusCode, started.body).toBe(302);
    const requestId = await idp.requestIdOf(String(started.headers.location));
    const acs = await w.app.inject({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: await idp.answer(requestId, { email }) }).toString(),
    });
    const exchanged = await call(w.app, {
      method: 'POST',
      url: '/auth/handoff',
      body: { handoff: handoffIn(acs) },
      headers: { cookie: bindingOf(started) },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    return exchanged.json().token as string;
  }

  /** An IdP LogoutRequest for `nameId` in the HTTP-Redirect binding, signed with `key` (none: unsigned). */
  function logoutRedirect(nameId: string, key?: string): string {
    const xml =
      '<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"' +
      ` ID="_${randomUUID()}" Version="2.0" IssueInstant="${new Date().toISOString()}"` +
      ` Destination="${w.t.config.publicUrl}/api/sso/saml/slo">` +
      `<saml:Issuer>${idp.entityId}</saml:Issuer>` +
      `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${nameId}</saml:NameID>` +
      '</samlp:LogoutRequest>';
    const enc = encodeURIComponent;
    let query = `SAMLRequest=${enc(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
    if (key) {
      query += `&SigAlg=${enc('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')}`;
      const signature = createSign('RSA-SHA256').update(query).sign(key, 'base64');
      query += `&Signature=${enc(signature)}`;
    }
    return `/api/sso/saml/slo?${query}`;
  }

  beforeAll(async () => {
    op = await startOidcProvider(redirectUris);
    idp = await startSamlIdp(async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body);
    const file = join(w.t.dataDir, 'idp-metadata.xml');
    writeFileSync(file, idp.metadata);
    // Tenant A: acme.test on its SAML IdP (no IdP-initiated sign-in). Tenant B: evil.test (and evil2.test)
    // on an OpenID provider B controls, trusted for its addresses, reading the address from `upn`.
    await admin(w, 'sso', 'set', 'acme.test', '--saml', '--metadata', file);
    await admin(
      w,
      ...ssoSetOidc('evil.test', op),
      '--domains',
      'evil2.test',
      '--trust-email',
      '--email-attribute',
      'upn',
    );
    const id = await w.app.db.kysely
      .selectFrom('sso_connections')
      .select('id')
      .where('domain', '=', 'evil.test')
      .executeTakeFirstOrThrow();
    redirectUris.push(`http://localhost:8080/api/sso/oidc/callback/${id.id}`);
    await registered(w, 'boss@acme.test');
  }, 90_000);
  afterAll(async () => {
    await op?.stop();
    await idp?.stop();
  });

  it('tenant B’s provider asserting an address of tenant A’s domain (mapped claim, trusted e-mail) gets no session', async () => {
    op.accounts.set('mole@evil.test', { email: null, other: { upn: 'boss@acme.test' } });
    const { res } = await oidcReturn('mole@evil.test');
    expect(errorReason(res)).toBe('foreign');
    op.accounts.set('mole2@evil2.test', { email: null, other: { upn: 'BOSS@acme.test' } });
    const second = await oidcReturn('mole2@evil2.test');
    expect(errorReason(second.res)).not.toBeNull();
    const pinned = await w.app.db.kysely.selectFrom('sso_identities').selectAll().execute();
    expect(pinned).toEqual([]);
    expect(
      await w.app.db.kysely.selectFrom('sso_sessions').select('session_id').where('domain', '=', 'acme.test').execute(),
    ).toEqual([]);
  });

  it('a person deactivated by their admin cannot come back through single sign-on', async () => {
    op.accounts.set('leaver@evil.test', { email: null, other: { upn: 'leaver@evil.test' } });
    const first = await oidcReturn('leaver@evil.test');
    const handoff = handoffIn(first.res);
    const exchanged = await call(w.app, {
      method: 'POST',
      url: '/auth/handoff',
      body: { handoff },
      headers: { cookie: first.cookie },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const token = exchanged.json().token as string;
    await admin(w, 'users', 'deactivate', 'leaver@evil.test');
    expect(await alive(token)).toBe(false);
    expect(errorReason((await oidcReturn('leaver@evil.test')).res)).toBe('inactive');
    expect(decodeSession(token).user.email).toBe('leaver@evil.test');
  });

  it('an IdP-initiated (unsolicited) response is refused on a connection that did not allow it', async () => {
    const unsolicited = await idp.answer('ignored', { email: 'boss@acme.test', inResponseTo: '' });
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/sso/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: unsolicited }).toString(),
    });
    expect(errorReason(res)).toBe('idp-initiated');
  });

  it('IdP-initiated where allowed: "Continue as …?" before any session, and the same response twice is refused', async () => {
    const file = join(w.t.dataDir, 'idp-metadata.xml');
    await admin(w, 'sso', 'set', 'acme.test', '--saml', '--metadata', file, '--allow-idp-initiated');
    try {
      const unsolicited = await idp.answer('ignored', { email: 'tile@acme.test', inResponseTo: '' });
      const post = () =>
        w.app.inject({
          method: 'POST',
          url: '/api/sso/saml/acs',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ SAMLResponse: unsolicited }).toString(),
        });
      const handoff = handoffIn(await post());
      // A browser that did not start it (no binding cookie) is asked first; nothing is spent or issued.
      const asked = await call(w.app, { method: 'POST', url: '/auth/handoff', body: { handoff } });
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json()).toEqual({ confirm_as: 'tile@acme.test' });
      expect(errorReason(await post())).toBe('expired');
    } finally {
      await admin(w, 'sso', 'set', 'acme.test', '--saml', '--metadata', file);
    }
  });

  it('a SAML LogoutRequest unsigned, or signed by another key, ends nothing; the IdP’s own signature does', async () => {
    const token = await samlSession('grace@acme.test');
    expect(await alive(token)).toBe(true);
    const unsigned = await w.app.inject({ method: 'GET', url: logoutRedirect('grace@acme.test') });
    expect(unsigned.statusCode).toBe(302);
    expect(await alive(token)).toBe(true);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const forged = await w.app.inject({ method: 'GET', url: logoutRedirect('grace@acme.test', stranger) });
    expect(forged.statusCode).toBe(302);
    expect(await alive(token)).toBe(true);
    // Control: the same message signed by the IdP's key ends the session (so the refusals above are real).
    const genuine = await w.app.inject({ method: 'GET', url: logoutRedirect('grace@acme.test', testCa().samlKey) });
    expect(genuine.statusCode).toBe(302);
    expect(String(genuine.headers.location).startsWith(idp.url), String(genuine.headers.location)).toBe(true);
    expect(await alive(token)).toBe(false);
  });

  it('tenant A’s IdP, with a genuine signature, cannot end tenant B’s sessions by naming B’s person', async () => {
    op.accounts.set('victim@evil.test', { email: null, other: { upn: 'victim@evil.test' } });
    const signedIn = await oidcReturn('victim@evil.test');
    const exchanged = await call(w.app, {
      method: 'POST',
      url: '/auth/handoff',
      body: { handoff: handoffIn(signedIn.res) },
      headers: { cookie: signedIn.cookie },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const token = exchanged.json().token as string;
    const row = await w.app.db.kysely
      .selectFrom('sso_sessions')
      .select(['subject', 'domain'])
      .where('user_id', '=', decodeSession(token).user._id)
      .executeTakeFirstOrThrow();
    expect(row.domain).toBe('evil.test');
    for (const nameId of [row.subject, 'victim@evil.test']) {
      const res = await w.app.inject({ method: 'GET', url: logoutRedirect(nameId, testCa().samlKey) });
      expect(res.statusCode).toBe(302);
    }
    expect(await alive(token)).toBe(true);
  });

  it('SAML metadata over plain http:// is refused (an attacker on the path could swap the IdP key)', async () => {
    const res = await runAdminCli(w, 'sso', 'set', 'plain.test', '--saml', '--metadata', `${idp.url}/metadata`);
    expect(res.code).not.toBe(0);
    expect(res.text).toMatch(/http:\/\//);
    expect(
      await w.app.db.kysely.selectFrom('sso_connections').where('domain', '=', 'plain.test').selectAll().execute(),
    ).toEqual([]);
  });

  it('a second connection cannot take the entity ID of another tenant’s IdP (entity swap / lookup confusion)', async () => {
    // Tenant B's operator request reuses acme.test's IdP entity ID for another domain: IdP-initiated
    // responses and LogoutRequests are routed by Issuer alone (bySamlEntityId), so two connections with
    // one entity ID make that routing depend on row order.
    const file = join(w.t.dataDir, 'idp-metadata-copy.xml');
    writeFileSync(file, idp.metadata);
    const res = await runAdminCli(w, 'sso', 'set', 'copycat.test', '--saml', '--metadata', file);
    expect(res.code).not.toBe(0);
    const rows = await w.app.db.kysely.selectFrom('sso_connections').select(['domain', 'settings']).execute();
    const sameEntity = rows.filter((r) => (JSON.parse(r.settings) as { entityId?: string }).entityId === idp.entityId);
    expect(sameEntity.map((r) => r.domain)).toEqual(['acme.test']);
  });
});

describe('review 3 follow-ups', () => {
  const w = useWorld();
  let boss: { token: string; id: string };
  const domain = 'follow-corp.com';

  const { get, post } = sessionCalls(w);
  const signUp = (email: string) => call(w.app, { method: 'POST', url: API.signup, body: { email } });
  const pendingOf = (email: string) =>
    w.app.db.kysely
      .selectFrom('access_requests')
      .selectAll()
      .where('email', '=', email)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
  async function approvedRequestOf(email: string): Promise<string> {
    expectError(await signUp(email), 403, 'ERR_SIGNUP_APPROVAL_PENDING');
    const { id } = await pendingOf(email);
    const ok = await post(path(ADMIN_API.adminRequestApprove, { id }), boss.token);
    expect(ok.statusCode, ok.body).toBe(200);
    return id;
  }
  const setMode = async (mode: 'open' | 'approval' | 'invite') =>
    expect(
      (
        await call(w.app, {
          method: 'PUT',
          url: path(ADMIN_API.adminSignupRules, { domain }),
          token: boss.token,
          body: { mode },
        })
      ).statusCode,
    ).toBe(200);
  const search = async (q: string) => {
    const res = await get(`${path(ADMIN_API.adminPeople, { domain })}?q=${encodeURIComponent(q)}`, boss.token);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().people as { email: string }[]).map((p) => p.email).sort();
  };

  beforeAll(async () => {
    boss = await registered(w, `boss@${domain}`);
    await admin(w, 'domain', 'admin', 'add', domain, `boss@${domain}`);
  }, 90_000);

  it('a deactivated admin is not mailed requests and does not count for the last-admin rule', async () => {
    const deputy = await registered(w, `deputy@${domain}`);
    expect(
      (await post(path(ADMIN_API.adminAdmins, { domain }), boss.token, { email: `deputy@${domain}` })).statusCode,
    ).toBe(200);
    expect((await post(path(ADMIN_API.adminPersonDeactivate, { id: deputy.id }), boss.token)).statusCode).toBe(200);
    const listed = (await get(path(ADMIN_API.adminAdmins, { domain }), boss.token)).json().admins as {
      email: string;
    }[];
    expect(listed.map((a) => a.email)).toEqual([`boss@${domain}`]);
    expectError(await removeDomainAdmin(w, boss.token, domain, boss.id), 409, 'ERR_ADMIN_LAST');
    const before = w.smtp.messages.length;
    await w.app.inject({
      method: 'POST',
      url: `/api${API.accessRequests}`,
      remoteAddress: '10.40.0.1',
      payload: { email: `newbie@${domain}`, reason: 'sso_unavailable' },
    });
    await mailTo(w.smtp, `boss@${domain}`, before);
    await outboxDrained(w);
    expect(w.smtp.messages.slice(before).filter((m) => m.to.includes(`deputy@${domain}`))).toEqual([]);
  });

  it('an approval admits one sign-up of its address, expires, and is not honoured once the domain is invite-only', async () => {
    await setMode('approval');
    // One sign-up: approved, it goes through (a code is mailed); the account made spends the approval.
    const once = await approvedRequestOf(`once@${domain}`);
    expect((await signUp(`once@${domain}`)).statusCode).toBe(201);
    // The account goes (removed by the operator, say): the same address cannot sign up again on it.
    await w.app.db.kysely.deleteFrom('users').where('email', '=', `once@${domain}`).execute();
    expectError(await signUp(`once@${domain}`), 403, 'ERR_SIGNUP_APPROVAL_PENDING');
    const used = await w.app.db.kysely
      .selectFrom('access_requests')
      .select('used_at')
      .where('id', '=', once)
      .executeTakeFirstOrThrow();
    expect(used.used_at).not.toBeNull();
    // Expired: approved longer ago than ACCESS_APPROVAL_TTL_MS.
    const late = await approvedRequestOf(`late@${domain}`);
    await w.app.db.kysely
      .updateTable('access_requests')
      .set({ decided_at: Date.now() - ACCESS_APPROVAL_TTL_MS - 60_000 })
      .where('id', '=', late)
      .execute();
    expectError(await signUp(`late@${domain}`), 403, 'ERR_SIGNUP_APPROVAL_PENDING');
    // Approved while the domain asked for approval; then it turned invite-only: refused.
    await approvedRequestOf(`switched@${domain}`);
    await setMode('invite');
    expectError(await signUp(`switched@${domain}`), 403, 'ERR_SIGNUP_INVITE_ONLY');
    expect(
      await w.app.db.kysely.selectFrom('users').where('email', '=', `switched@${domain}`).selectAll().execute(),
    ).toEqual([]);
    await setMode('open');
  });

  it('people search takes % and _ literally, on SQLite as on PostgreSQL', async () => {
    const under = await registered(w, `max_power@${domain}`);
    await registered(w, `maxipower@${domain}`);
    const pct = await registered(w, `quota@${domain}`);
    await registered(w, `quota2@${domain}`);
    await w.app.db.kysely.updateTable('users').set({ last_name: 'Share 100%' }).where('id', '=', pct.id).execute();
    await w.app.db.kysely
      .updateTable('users')
      .set({ last_name: 'Share 1000' })
      .where('email', '=', `quota2@${domain}`)
      .execute();
    expect(await search('x_p')).toEqual([`max_power@${domain}`]);
    expect(await search('0%')).toEqual([`quota@${domain}`]);
    expect(await search('max')).toEqual([`max_power@${domain}`, `maxipower@${domain}`]);
    expect(under.id).toBeTruthy();
  });

  it('beyond the daily share of mails, requests still wait in the console and the admins get one digest', async () => {
    const other = 'flood-corp.com';
    await registered(w, `chief@${other}`);
    await admin(w, 'domain', 'admin', 'add', other, `chief@${other}`);
    const chief = await call(w.app, {
      method: 'POST',
      url: API.login,
      body: { login: `chief@${other}`, password: PASSWORD },
    });
    const token = chief.json().token as string;
    const before = w.smtp.messages.length;
    const ask = (email: string, ip: string) =>
      w.app.inject({
        method: 'POST',
        url: `/api${API.accessRequests}`,
        remoteAddress: ip,
        payload: { email, reason: 'sso_unavailable' },
      });
    for (let i = 0; i < ACCESS_REQUEST_MAILS_PER_DOMAIN + 4; i++) {
      expect((await ask(`made-up${i}@${other}`, `10.30.${i % 10}.1`)).statusCode).toBe(202);
    }
    expect((await ask(`colleague@${other}`, '10.31.0.1')).statusCode).toBe(202);
    const unannounced = () =>
      w.app.db.kysely
        .selectFrom('access_requests')
        .select('id')
        .where('domain', '=', other)
        .where('token_expires_at', 'is', null)
        .execute();
    await vi.waitFor(async () => expect(await unannounced()).toEqual([]), { timeout: 20_000, interval: 100 });
    await outboxDrained(w);
    const toChief = w.smtp.messages.slice(before).filter((m) => m.to.includes(`chief@${other}`));
    expect(toChief.filter((m) => m.subject.startsWith('Someone asks for access'))).toHaveLength(
      ACCESS_REQUEST_MAILS_PER_DOMAIN,
    );
    const digests = toChief.filter((m) => m.subject.startsWith('Requests for access'));
    expect(digests).toHaveLength(1);
    const waiting = Number(/(\d+) requests for access/.exec(digests[0]!.text)?.[1]);
    expect(waiting).toBeGreaterThan(ACCESS_REQUEST_MAILS_PER_DOMAIN);
    // The colleague's request is in the console, pending, for the admin to decide.
    const page = await get(`${path(ADMIN_API.adminRequests, { domain: other })}?status=pending`, token);
    expect(page.statusCode, page.body).toBe(200);
    const mine = (page.json().requests as { email: string; id: string }[]).find(
      (r) => r.email === `colleague@${other}`,
    );
    expect(mine).toBeDefined();
    expect((await post(path(ADMIN_API.adminRequestApprove, { id: mine!.id }), token)).statusCode).toBe(200);
  });

  it('one SAML IdP is one connection: a second one is refused with the way to serve more domains, and older twins route nowhere', async () => {
    const idp = await startSamlIdp(
      async () => (await w.app.inject({ method: 'GET', url: '/api/sso/saml/metadata' })).body,
    );
    try {
      const file = join(w.t.dataDir, 'follow-idp.xml');
      writeFileSync(file, idp.metadata);
      await admin(w, 'sso', 'set', 'saml-follow.test', '--saml', '--metadata', file, '--allow-idp-initiated');
      const twin = await runAdminCli(w, 'sso', 'set', 'twin.test', '--saml', '--metadata', file);
      expect(twin.code).not.toBe(0);
      expect(twin.text).toMatch(/saml-follow\.test.*--domains/s);
      const unsolicited = async (email: string) =>
        w.app.inject({
          method: 'POST',
          url: '/api/sso/saml/acs',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({
            SAMLResponse: await idp.answer('ignored', { email, inResponseTo: '' }),
          }).toString(),
        });
      // Control: with one connection, the IdP's tile leads to "Continue as …?".
      const one = await unsolicited('tile1@saml-follow.test');
      expect(handoffIn(one)).toBeTruthy();
      // A twin written before the rule (copied row): the issuer no longer names one tenant, so nothing goes.
      const row = await w.app.db.kysely
        .selectFrom('sso_connections')
        .selectAll()
        .where('domain', '=', 'saml-follow.test')
        .executeTakeFirstOrThrow();
      await w.app.db.kysely
        .insertInto('sso_connections')
        .values({ ...row, domain: 'twin.test', id: 'twin-connection' })
        .execute();
      expect(errorReason(await unsolicited('tile2@saml-follow.test'))).toBe('expired');
    } finally {
      await idp.stop();
    }
  });
});
