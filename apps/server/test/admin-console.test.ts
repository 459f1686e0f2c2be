import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_WEB_PATHS, AUDIT_RETENTION_DAYS, apiPath, ADMIN_API, API } from '@suite/contract';
import { adminCli } from '../src/modules/admin/index.js';
import { purgeOldAudit } from '../src/modules/audit/index.js';
import { parseAddressList } from '../src/modules/admin/people.js';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import {
  PASSWORD,
  addDomainAdmin,
  admin,
  call,
  expectError,
  freshened,
  mailTo,
  registered,
  removeDomainAdmin,
  runAdminCli,
  sessionCalls,
  staled,
  turnOnTotp,
  useWorld,
} from './accounts-helpers.js';

/**
 * The domain administrator's console through its HTTP API, on a real server and database (SQLite here,
 * PostgreSQL in the PostgreSQL suite), mail through a real SMTP server.
 */
describe('domain administrator console', () => {
  const w = useWorld();
  let boss: { token: string; id: string };
  let ana: { token: string; id: string };
  let other: { token: string; id: string };

  const { get, post, put } = sessionCalls(w);
  const path = apiPath;

  beforeAll(async () => {
    boss = await registered(w, 'boss@acme-corp.com');
    ana = await registered(w, 'ana@acme-corp.com');
    other = await registered(w, 'olga@globex-corp.com');
    await admin(w, 'domain', 'admin', 'add', 'acme-corp.com', 'boss@acme-corp.com');
    await admin(w, 'domain', 'admin', 'add', 'globex-corp.com', 'olga@globex-corp.com');
  }, 60_000);

  describe('who is an administrator', () => {
    it('the operator grants, lists and refuses a person of another domain', async () => {
      const list = await admin(w, 'domain', 'admin', 'list', 'acme-corp.com');
      expect(list).toContain('boss@acme-corp.com\toperator');
      const refused = await runAdminCli(w, 'domain', 'admin', 'add', 'acme-corp.com', 'olga@globex-corp.com');
      expect(refused.code).toBe(2);
      expect(refused.text).toContain('not a registered person of acme-corp.com');
    });

    it('GET /admin/me answers the administered domains, 404 for everyone else', async () => {
      const me = await get(ADMIN_API.adminMe, boss.token);
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json()).toEqual({ domains: [{ domain: 'acme-corp.com', via: 'operator' }] });
      expectError(await get(ADMIN_API.adminMe, ana.token), 404, 'ERR_NOT_FOUND');
      expectError(await get(ADMIN_API.adminMe, ''), 401, 'ERR_INVALID_ACCESS_TOKEN');
    });

    it('an admin adds another; the last admin cannot remove themself; removing another works', async () => {
      const added = await addDomainAdmin(w, boss.token, 'acme-corp.com', 'ana@acme-corp.com');
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().admins.map((a: { email: string }) => a.email)).toEqual([
        'ana@acme-corp.com',
        'boss@acme-corp.com',
      ]);
      expectError(await addDomainAdmin(w, boss.token, 'acme-corp.com', 'ana@acme-corp.com'), 409, 'ERR_ADMIN_ALREADY');
      expectError(
        await addDomainAdmin(w, boss.token, 'acme-corp.com', 'olga@globex-corp.com'),
        400,
        'ERR_ADMIN_NOT_IN_DOMAIN',
      );
      const removed = await removeDomainAdmin(w, boss.token, 'acme-corp.com', ana.id);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().admins).toHaveLength(1);
      const self = await removeDomainAdmin(w, boss.token, 'acme-corp.com', boss.id);
      expectError(self, 409, 'ERR_ADMIN_LAST');
      expect((await get(ADMIN_API.adminMe, boss.token)).statusCode).toBe(200);
    });
  });

  describe('authorization', () => {
    it('a non-admin gets 404 on every admin path, and another domain answers 404 to an admin', async () => {
      const acme = { domain: 'acme-corp.com' };
      const paths = [
        ['GET', path(ADMIN_API.adminPeople, acme)],
        ['GET', path(ADMIN_API.adminAdmins, acme)],
        ['GET', path(ADMIN_API.adminSignupRules, acme)],
        ['GET', path(ADMIN_API.adminSecurityPolicy, acme)],
        ['GET', path(ADMIN_API.adminRequests, acme)],
        ['GET', path(ADMIN_API.adminAudit, acme)],
        ['GET', path(ADMIN_API.adminAuditExport, acme)],
        ['GET', path(ADMIN_API.adminPerson, { id: boss.id })],
        ['POST', path(ADMIN_API.adminPersonDeactivate, { id: boss.id })],
        ['POST', path(ADMIN_API.adminPersonEndSessions, { id: boss.id })],
        ['POST', path(ADMIN_API.adminInvitations, acme)],
      ] as const;
      for (const [method, url] of paths) {
        const body = url.endsWith('invitations') ? { text: 'x@acme-corp.com' } : method === 'POST' ? {} : undefined;
        for (const token of [ana.token, other.token]) {
          const res = await call(w.app, { method, url, token, body });
          expect({ url, status: res.statusCode, code: res.json().error_code }).toEqual({
            url,
            status: 404,
            code: 'ERR_NOT_FOUND',
          });
        }
      }
      // Nothing was done by those calls.
      expect((await get(path(ADMIN_API.adminPerson, { id: boss.id }), boss.token)).json().person.status).toBe('active');
    });

    it('actions need a fresh proof (403 ERR_PROOF_REQUIRED), reads do not', async () => {
      // A session whose last proof is older than PROOF_FRESH_MS: what a stolen, idle session looks like.
      await staled(w, boss.token);
      try {
        expect((await get(path(ADMIN_API.adminPeople, { domain: 'acme-corp.com' }), boss.token)).statusCode).toBe(200);
        expectError(
          await post(path(ADMIN_API.adminPersonEndSessions, { id: ana.id }), boss.token),
          403,
          'ERR_PROOF_REQUIRED',
        );
        expectError(
          await put(path(ADMIN_API.adminSecurityPolicy, { domain: 'acme-corp.com' }), boss.token, {
            session_max_ms: 3_600_000,
          }),
          403,
          'ERR_PROOF_REQUIRED',
        );
        // A fresh proof through the Security panel's own call opens the action.
        const reauth = await post(API.reauth, boss.token, { method: 'password', password: PASSWORD });
        expect(reauth.statusCode, reauth.body).toBe(200);
        expect((await post(path(ADMIN_API.adminPersonEndSessions, { id: ana.id }), boss.token)).statusCode).toBe(200);
      } finally {
        await freshened(w, boss.token);
      }
      // Ana's session ended with it.
      expectError(await get(API.me, ana.token), 401, 'ERR_INVALID_ACCESS_TOKEN');
      ana = { ...ana, token: await login('ana@acme-corp.com') };
    });
  });

  async function login(email: string): Promise<string> {
    const res = await call(w.app, { method: 'POST', url: API.login, body: { login: email, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  }

  describe('people', () => {
    it('lists, searches and filters with methods, sessions and last sign-in; pages by cursor', async () => {
      for (let i = 0; i < 5; i++) {
        await w.app.db.kysely
          .insertInto('users')
          .values({
            id: `bulk${i}`,
            email: `bulk${i}@acme-corp.com`,
            domain: 'acme-corp.com',
            password_hash: null,
            first_name: `Bulk${i}`,
            last_name: 'Person',
            language: 'en',
            preferences: '{}',
            confirmed_at: Date.now(),
            registered_at: Date.now(),
            invited_by: null,
            created_at: Date.now(),
          })
          .execute();
      }
      const url = path(ADMIN_API.adminPeople, { domain: 'acme-corp.com' });
      const all = await get(`${url}?limit=3`, boss.token);
      expect(all.statusCode, all.body).toBe(200);
      const first = all.json();
      expect(
        first.people.map((p: { email: string }) => p.email),
        all.body,
      ).toHaveLength(3);
      expect(first.people.map((p: { email: string }) => p.email)).toEqual([
        'ana@acme-corp.com',
        'boss@acme-corp.com',
        'bulk0@acme-corp.com',
      ]);
      const anaRow = first.people[0];
      expect(anaRow.methods).toEqual(['password']);
      expect(anaRow.sessions).toBeGreaterThanOrEqual(1);
      expect(anaRow.last_sign_in_at).not.toBeNull();
      expect(first.people[1].admin).toBe(true);
      const second = (await get(`${url}?limit=3&cursor=${first.next_cursor}`, boss.token)).json();
      expect(second.people.map((p: { email: string }) => p.email)).toEqual([
        'bulk1@acme-corp.com',
        'bulk2@acme-corp.com',
        'bulk3@acme-corp.com',
      ]);
      const found = (await get(`${url}?q=${encodeURIComponent('bulk4 per')}`, boss.token)).json();
      expect(found.people.map((p: { email: string }) => p.email)).toEqual(['bulk4@acme-corp.com']);
      const byAddress = (await get(`${url}?q=ANA@`, boss.token)).json();
      expect(byAddress.people.map((p: { email: string }) => p.email)).toEqual(['ana@acme-corp.com']);
      expectError(await get(`${url}?cursor=nonsense`, boss.token), 400, 'ERR_VALIDATION');
      // Never another domain's people.
      expect(JSON.stringify((await get(url, boss.token)).json())).not.toContain('globex');
    });

    it('deactivate ends every session at once; reactivate brings none back', async () => {
      const anaToken = await login('ana@acme-corp.com');
      expect((await get(API.me, anaToken)).statusCode).toBe(200);
      const off = await post(path(ADMIN_API.adminPersonDeactivate, { id: ana.id }), boss.token);
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().person).toMatchObject({ status: 'deactivated', sessions: 0 });
      expectError(await get(API.me, anaToken), 401, 'ERR_INVALID_ACCESS_TOKEN');
      const refused = await call(w.app, {
        method: 'POST',
        url: API.login,
        body: { login: 'ana@acme-corp.com', password: PASSWORD },
      });
      expectError(refused, 403, 'ERR_USER_NOT_ACTIVE');
      const filtered = (
        await get(`${path(ADMIN_API.adminPeople, { domain: 'acme-corp.com' })}?status=deactivated`, boss.token)
      ).json();
      expect(filtered.people.map((p: { email: string }) => p.email)).toEqual(['ana@acme-corp.com']);

      const on = await post(path(ADMIN_API.adminPersonReactivate, { id: ana.id }), boss.token);
      expect(on.json().person.status).toBe('active');
      expectError(await get(API.me, anaToken), 401, 'ERR_INVALID_ACCESS_TOKEN');
      ana = { ...ana, token: await login('ana@acme-corp.com') };
      expectError(await post(path(ADMIN_API.adminPersonDeactivate, { id: boss.id }), boss.token), 403, 'ERR_FORBIDDEN');
    });

    it('resets two-step verification of a person who lost their phone, and mails them', async () => {
      await turnOnTotp(w, ana.token);
      const before = w.smtp.messages.length;
      const res = await post(path(ADMIN_API.adminPersonResetTwoStep, { id: ana.id }), boss.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().person.methods).toEqual(['password']);
      const mail = await w.smtp.waitFor(
        (m) => w.smtp.messages.indexOf(m) >= before && m.to.includes('ana@acme-corp.com') && /reset/.test(m.subject),
      );
      expect(mail.text).toContain('An administrator turned off two-step verification');
      // A password sign-in is again complete without a code.
      ana = { ...ana, token: await login('ana@acme-corp.com') };
      const removed = await post(path(ADMIN_API.adminPersonRemovePasskeys, { id: ana.id }), boss.token);
      expect(removed.statusCode).toBe(200);
      ana = { ...ana, token: await login('ana@acme-corp.com') };
    });

    it('invites a pasted list, skipping what it cannot invite; lists and resends invitations', async () => {
      expect(parseAddressList('A <a@x.com>; b@x.com,\n c@x.com  mailto:d@x.com')).toEqual([
        'a@x.com',
        'b@x.com',
        'c@x.com',
        'd@x.com',
      ]);
      const before = w.smtp.messages.length;
      const res = await post(path(ADMIN_API.adminInvitations, { domain: 'acme-corp.com' }), boss.token, {
        text: 'New One <new1@acme-corp.com>\nnew2@acme-corp.com, new2@acme-corp.com; x@globex-corp.com not-an-address ana@acme-corp.com',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        invited: ['new1@acme-corp.com', 'new2@acme-corp.com'],
        skipped: [
          { email: 'new2@acme-corp.com', reason: 'duplicate' },
          { email: 'x@globex-corp.com', reason: 'other_domain' },
          { email: 'not-an-address', reason: 'invalid' },
          { email: 'ana@acme-corp.com', reason: 'already_registered' },
        ],
      });
      await mailTo(w.smtp, 'new1@acme-corp.com', before);
      const invited = (
        await get(`${path(ADMIN_API.adminPeople, { domain: 'acme-corp.com' })}?status=invited`, boss.token)
      ).json();
      expect(invited.people.map((p: { email: string; status: string }) => [p.email, p.status])).toEqual([
        ['new1@acme-corp.com', 'invited'],
        ['new2@acme-corp.com', 'invited'],
      ]);
      const again = w.smtp.messages.length;
      const resent = await post(path(ADMIN_API.adminPersonResendInvitation, { id: invited.people[0].id }), boss.token);
      expect(resent.statusCode, resent.body).toBe(200);
      await mailTo(w.smtp, 'new1@acme-corp.com', again);
      expectError(
        await post(path(ADMIN_API.adminPersonResendInvitation, { id: ana.id }), boss.token),
        409,
        'ERR_PERSON_NOT_INVITED',
      );
      expectError(
        await post(path(ADMIN_API.adminInvitations, { domain: 'acme-corp.com' }), boss.token, {
          text: Array.from({ length: 201 }, (_, i) => `p${i}@acme-corp.com`).join('\n'),
        }),
        400,
        'ERR_INVITE_LIST_TOO_LONG',
      );
      // The other domain's admin cannot resend it.
      expectError(
        await post(path(ADMIN_API.adminPersonResendInvitation, { id: invited.people[0].id }), other.token),
        404,
        'ERR_NOT_FOUND',
      );
    });
  });

  describe('sign-up rules and requests', () => {
    it('shows seats and SSO-only availability; refuses SSO-only without a connection and an SSO session', async () => {
      const url = path(ADMIN_API.adminSignupRules, { domain: 'acme-corp.com' });
      const rules = await get(url, boss.token);
      expect(rules.statusCode, rules.body).toBe(200);
      expect(rules.json()).toMatchObject({
        mode: 'open',
        sso_only: false,
        sso_only_available: false,
        sso_connection: false,
      });
      expect(rules.json().seats.used).toBeGreaterThanOrEqual(2);
      expectError(await put(url, boss.token, { sso_only: true }), 409, 'ERR_SSO_ONLY_NOT_ALLOWED');
      expect((await get(url, boss.token)).json().sso_only).toBe(false);
    });

    it('invite only: sign-up refused without an invitation', async () => {
      const url = path(ADMIN_API.adminSignupRules, { domain: 'acme-corp.com' });
      expect((await put(url, boss.token, { mode: 'invite' })).json().mode).toBe('invite');
      const res = await call(w.app, { method: 'POST', url: API.signup, body: { email: 'walkin@acme-corp.com' } });
      expectError(res, 403, 'ERR_SIGNUP_INVITE_ONLY');
    });

    it('approval: sign-up files a request, the admin approves from the mail link once, the person is told and can sign up', async () => {
      const url = path(ADMIN_API.adminSignupRules, { domain: 'acme-corp.com' });
      expect((await put(url, boss.token, { mode: 'approval' })).json().mode).toBe('approval');
      const before = w.smtp.messages.length;
      const res = await call(w.app, { method: 'POST', url: API.signup, body: { email: 'hopeful@acme-corp.com' } });
      expectError(res, 403, 'ERR_SIGNUP_APPROVAL_PENDING');
      const waiting = (
        await get(`${path(ADMIN_API.adminPeople, { domain: 'acme-corp.com' })}?status=waiting`, boss.token)
      ).json();
      expect(waiting.people.map((p: { email: string }) => p.email)).toEqual(['hopeful@acme-corp.com']);

      const mail = await mailTo(w.smtp, 'boss@acme-corp.com', before);
      expect(mail.subject).toContain('acme-corp.com');
      expect(mail.text).toContain('hopeful@acme-corp.com');
      const link = /https?:\/\/\S+#token=(\S+)/.exec(mail.text);
      expect(link?.[0]).toContain(ADMIN_WEB_PATHS.decide);
      const token = link?.[1] ?? '';
      const preview = await call(w.app, { method: 'POST', url: API.accessRequestLink, body: { token } });
      expect(preview.json().request).toMatchObject({ email: 'hopeful@acme-corp.com', status: 'pending' });
      const tampered = `${token.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`;
      expectError(
        await call(w.app, {
          method: 'POST',
          url: API.accessRequestDecide,
          body: { token: tampered, decision: 'approve' },
        }),
        400,
        'ERR_REQUEST_LINK_INVALID',
      );
      const told = w.smtp.messages.length;
      const decided = await call(w.app, {
        method: 'POST',
        url: API.accessRequestDecide,
        body: { token, decision: 'approve' },
      });
      expect(decided.statusCode, decided.body).toBe(200);
      expect(decided.json().request).toMatchObject({ status: 'approved', decided_by: 'boss@acme-corp.com' });
      expectError(
        await call(w.app, { method: 'POST', url: API.accessRequestDecide, body: { token, decision: 'refuse' } }),
        400,
        'ERR_REQUEST_LINK_INVALID',
      );
      const outcome = await mailTo(w.smtp, 'hopeful@acme-corp.com', told);
      expect(outcome.subject).toContain('approved');
      const signup = await call(w.app, { method: 'POST', url: API.signup, body: { email: 'hopeful@acme-corp.com' } });
      expect(signup.statusCode, signup.body).toBe(201);
    });

    it('"Ask for access" answers the same whatever the domain; admins decide in the console', async () => {
      const ask = (email: string) =>
        call(w.app, { method: 'POST', url: API.accessRequests, body: { email, reason: 'domain_inactive' } });
      const answers = await Promise.all([
        ask('someone@acme-corp.com'),
        ask('someone@no-admins-here.com'),
        ask('someone@gmail.com'),
      ]);
      for (const a of answers) {
        expect({ status: a.statusCode, body: a.json() }).toEqual({ status: 202, body: { ok: true } });
      }
      // Limited per address: the 4th request in a day stores nothing, and says the same.
      for (let i = 0; i < 3; i++) {
        expect(
          (
            await call(w.app, {
              method: 'POST',
              url: API.accessRequests,
              body: {
                email: 'pushy@acme-corp.com',
                reason: i === 0 ? 'sso_unavailable' : i === 1 ? 'invite_only' : 'approval',
              },
            })
          ).statusCode,
        ).toBe(202);
      }
      expect((await ask('pushy@acme-corp.com')).statusCode).toBe(202);
      const stored = await w.app.db.kysely
        .selectFrom('access_requests')
        .select('id')
        .where('email', '=', 'pushy@acme-corp.com')
        .execute();
      expect(stored).toHaveLength(3);

      const list = await get(
        `${path(ADMIN_API.adminRequests, { domain: 'acme-corp.com' })}?status=pending`,
        boss.token,
      );
      expect(list.statusCode, list.body).toBe(200);
      const request = list.json().requests.find((r: { email: string }) => r.email === 'someone@acme-corp.com');
      expect(request).toMatchObject({ reason: 'domain_inactive', status: 'pending' });
      expectError(
        await post(path(ADMIN_API.adminRequestRefuse, { id: request.id }), other.token),
        404,
        'ERR_NOT_FOUND',
      );
      const before = w.smtp.messages.length;
      const refused = await post(path(ADMIN_API.adminRequestRefuse, { id: request.id }), boss.token);
      expect(refused.json().request.status).toBe('refused');
      expect((await mailTo(w.smtp, 'someone@acme-corp.com', before)).subject).toContain('refused');
      expectError(
        await post(path(ADMIN_API.adminRequestApprove, { id: request.id }), boss.token),
        409,
        'ERR_REQUEST_ALREADY_DECIDED',
      );
    });
  });

  describe('security policy', () => {
    it('bounds session lifetime and idle time, applied to existing sessions at their next request', async () => {
      const url = path(ADMIN_API.adminSecurityPolicy, { domain: 'acme-corp.com' });
      expect((await get(url, boss.token)).json()).toEqual({
        require_two_step: false,
        two_step_grace_days: 0,
        two_step_grace_until: null,
        session_max_ms: null,
        session_idle_ms: null,
        trust_browsers: true,
      });
      expectError(await put(url, boss.token, { session_max_ms: 60_000 }), 400, 'ERR_VALIDATION');
      expectError(await put(url, boss.token, { session_max_ms: 31 * 86_400_000 }), 400, 'ERR_VALIDATION');
      const anaToken = await login('ana@acme-corp.com');
      const olgaToken = await login('olga@globex-corp.com');
      // Sessions that are two hours old, signed in before the policy.
      await w.app.db.kysely
        .updateTable('sessions')
        .set({ created_at: Date.now() - 2 * 3_600_000 })
        .where('user_id', 'in', [ana.id, other.id])
        .execute();
      expect((await get(API.me, anaToken)).statusCode).toBe(200);
      const set = await put(url, boss.token, { session_max_ms: 3_600_000, session_idle_ms: 15 * 60_000 });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toMatchObject({ session_max_ms: 3_600_000, session_idle_ms: 15 * 60_000 });
      expectError(await get(API.me, anaToken), 401, 'ERR_INVALID_ACCESS_TOKEN');
      // Another domain's sessions are not bound by it; the admin's own fresh one still works.
      expect((await get(API.me, olgaToken)).statusCode).toBe(200);
      expect((await get(API.me, boss.token)).statusCode).toBe(200);
      // Idle: a session not seen for 20 minutes ends at its next request.
      const idle = await login('ana@acme-corp.com');
      await w.app.db.kysely
        .updateTable('sessions')
        .set({ last_seen_at: Date.now() - 20 * 60_000 })
        .where('user_id', '=', ana.id)
        .execute();
      expectError(await get(API.me, idle), 401, 'ERR_INVALID_ACCESS_TOKEN');
      // Lifting the limits again.
      expect((await put(url, boss.token, { session_max_ms: null, session_idle_ms: null })).statusCode).toBe(200);
      ana = { ...ana, token: await login('ana@acme-corp.com') };
      const events = (
        await get(`${path(ADMIN_API.adminAudit, { domain: 'acme-corp.com' })}?kind=policy_changed`, boss.token)
      ).json();
      expect(events.events.map((e: { action: string }) => e.action)).toEqual(
        expect.arrayContaining(['session_max_ms', 'session_idle_ms']),
      );
    });

    it('require two-step: a password sign-in without a second factor enrols before any session', async () => {
      const url = path(ADMIN_API.adminSecurityPolicy, { domain: 'acme-corp.com' });
      expect((await put(url, boss.token, { require_two_step: true, two_step_grace_days: 0 })).statusCode).toBe(200);
      try {
        const first = await call(w.app, {
          method: 'POST',
          url: API.login,
          body: { login: 'ana@acme-corp.com', password: PASSWORD },
        });
        expect(first.statusCode, first.body).toBe(200);
        expect(first.json()).toEqual({ enrol: 'totp', pending_token: expect.any(String) });
        const pending = first.json().pending_token as string;
        const setup = await call(w.app, {
          method: 'POST',
          url: API.loginEnrolSetup,
          body: { email: 'ana@acme-corp.com', pending_token: pending },
        });
        expect(setup.statusCode, setup.body).toBe(200);
        const secret = setup.json().secret as string;
        expectError(
          await call(w.app, {
            method: 'POST',
            url: API.loginEnrol,
            body: { email: 'ana@acme-corp.com', pending_token: pending, code: '000000' },
          }),
          400,
          'ERR_TOTP_CODE_INVALID',
        );
        const done = await call(w.app, {
          method: 'POST',
          url: API.loginEnrol,
          body: { email: 'ana@acme-corp.com', pending_token: pending, code: await currentCode(secret) },
        });
        expect(done.statusCode, done.body).toBe(200);
        expect(done.json().recovery_codes).toHaveLength(10);
        expect((await get(API.me, done.json().token as string)).statusCode).toBe(200);
        // The token is used up; the next password sign-in asks for the code.
        expectError(
          await call(w.app, {
            method: 'POST',
            url: API.loginEnrolSetup,
            body: { email: 'ana@acme-corp.com', pending_token: pending },
          }),
          401,
          'ERR_SECOND_STEP_EXPIRED',
        );
        const next = await call(w.app, {
          method: 'POST',
          url: API.login,
          body: { login: 'ana@acme-corp.com', password: PASSWORD },
        });
        expect(next.json().second_step).toBe('totp');
        // The admin (with a second factor now reset for Ana) turns it off again.
        expect((await post(path(ADMIN_API.adminPersonResetTwoStep, { id: ana.id }), boss.token)).statusCode).toBe(200);
      } finally {
        expect((await put(url, boss.token, { require_two_step: false })).statusCode).toBe(200);
      }
      ana = { ...ana, token: await login('ana@acme-corp.com') };
    });

    it('turning two-step on starts the grace', async () => {
      const url = path(ADMIN_API.adminSecurityPolicy, { domain: 'acme-corp.com' });
      const on = await put(url, boss.token, { require_two_step: true, two_step_grace_days: 7 });
      expect(on.statusCode, on.body).toBe(200);
      const until = Date.parse(on.json().two_step_grace_until);
      expect(until - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
      // During the grace a password sign-in still gets a session, with the banner's date in /me.
      const during = await login('ana@acme-corp.com');
      expect((await get(API.me, during)).json().policy_notice).toEqual({
        two_step_required_by: on.json().two_step_grace_until,
      });
      expect((await get(API.me, boss.token)).json().policy_notice).toEqual({
        two_step_required_by: on.json().two_step_grace_until,
      });
      expect((await put(url, boss.token, { require_two_step: false })).json().two_step_grace_until).toBeNull();
      // The banner follows the policy at the next request of a session already open.
      expect((await get(API.me, during)).json()).not.toHaveProperty('policy_notice');
    });
  });

  describe('audit trail', () => {
    it('records admin actions, sign-ins and failures; filters by person, kind and time; pages', async () => {
      const bad = await call(w.app, {
        method: 'POST',
        url: API.login,
        body: { login: 'ana@acme-corp.com', password: 'wrong-one-1' },
      });
      expect(bad.statusCode).toBe(401);
      const url = path(ADMIN_API.adminAudit, { domain: 'acme-corp.com' });
      const failed = (await get(`${url}?kind=sign_in_failed`, boss.token)).json();
      expect(failed.events[0]).toMatchObject({
        kind: 'sign_in_failed',
        target_email: 'ana@acme-corp.com',
        reason: 'ERR_INVALID_CREDENTIALS',
      });
      const forAna = (await get(`${url}?person=ana@acme-corp.com&kind=admin_action`, boss.token)).json();
      expect(forAna.events.map((e: { action: string }) => e.action)).toEqual(
        expect.arrayContaining(['deactivate', 'reactivate', 'admin_added', 'admin_removed']),
      );
      expect(forAna.events.every((e: { actor_email: string }) => e.actor_email === 'boss@acme-corp.com')).toBe(true);
      const factor = (await get(`${url}?kind=factor_changed&person=${ana.id}`, boss.token)).json();
      expect(factor.events.map((e: { action: string }) => e.action)).toEqual(
        expect.arrayContaining(['reset_two_step', 'totp-on']),
      );
      const policy = (await get(`${url}?kind=policy_changed`, boss.token)).json();
      expect(policy.events).toContainEqual(
        expect.objectContaining({ action: 'signup_mode', details: { from: 'invite', to: 'approval' } }),
      );
      const future = (
        await get(`${url}?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, boss.token)
      ).json();
      expect(future.events).toEqual([]);
      const page1 = (await get(`${url}?limit=2`, boss.token)).json();
      const page2 = (await get(`${url}?limit=2&cursor=${page1.next_cursor}`, boss.token)).json();
      expect(page2.events[0].at <= page1.events[1].at).toBe(true);
      expect(page2.events.map((e: { id: string }) => e.id)).not.toContain(page1.events[1].id);
      // Another domain's trail stays there.
      const theirs = (await get(path(ADMIN_API.adminAudit, { domain: 'globex-corp.com' }), other.token)).json();
      expect(JSON.stringify(theirs)).not.toContain('acme-corp.com');
    });

    it('exports CSV (guarded against formulas) over HTTP and the CLI; purges past the retention', async () => {
      const res = await get(
        `${path(ADMIN_API.adminAuditExport, { domain: 'acme-corp.com' })}?kind=admin_action`,
        boss.token,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      const lines = res.body.trim().split('\r\n');
      expect(lines[0]).toBe('at,kind,action,actor_email,target_email,reason,ip,details');
      expect(lines.slice(1).every((l) => l.split(',')[1] === 'admin_action')).toBe(true);
      expect(lines.some((l) => l.includes('deactivate') && l.includes('ana@acme-corp.com'))).toBe(true);
      expectError(
        await get(path(ADMIN_API.adminAuditExport, { domain: 'acme-corp.com' }), await login('ana@acme-corp.com')),
        404,
        'ERR_NOT_FOUND',
      );

      const cli = await admin(w, 'audit', 'export', '--domain', 'acme-corp.com');
      expect(cli.split('\n')[0]).toBe('at,kind,action,actor_email,target_email,reason,ip,details');
      expect(cli).toContain('admin_added');

      await w.app.db.kysely
        .insertInto('audit_events')
        .values({
          id: 'old-event',
          domain: 'acme-corp.com',
          at: Date.now() - (AUDIT_RETENTION_DAYS + 1) * 86_400_000,
          kind: 'admin_action',
          action: '=HYPERLINK("http://evil")',
          actor_id: null,
          actor_email: null,
          target_id: null,
          target_email: null,
          reason: null,
          ip: null,
        })
        .execute();
      const csv = (await get(path(ADMIN_API.adminAuditExport, { domain: 'acme-corp.com' }), boss.token)).body;
      expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
      expect(await purgeOldAudit(w.app.db.kysely, w.t.config.auditRetentionDays)).toBe(1);
      const after = (await get(path(ADMIN_API.adminAuditExport, { domain: 'acme-corp.com' }), boss.token)).body;
      expect(after).not.toContain('HYPERLINK');
      expect(adminCli).toBeTypeOf('function');
    });
  });
});
