import { beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { codeIn, type SmtpFixture } from '../test/smtp.js';
import { api, type Instance } from './cluster.js';

/** What the scale-out suite's cluster gives these tests (read once its start is done). */
export interface AdminCluster {
  a: Instance;
  b: Instance;
  smtp: SmtpFixture;
  db: () => pg.Client;
}

const PASSWORD = 'Correct-Horse-42';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The domain administrator's console over two instances on one PostgreSQL: what an administrator does
 * through one instance (deactivating a person, a session-lifetime policy) holds on the other at the
 * person's next request, because sessions, accounts and policies are read from the database on every
 * request, never from an instance's memory.
 */
export function adminAcrossInstances(cluster: () => AdminCluster): void {
  describe('the administrators console across the two instances', () => {
    let c: AdminCluster;
    let boss = '';
    let bossId = '';
    let personId = '';
    beforeAll(() => {
      c = cluster();
    });

    async function registered(email: string): Promise<{ token: string; id: string }> {
      const before = c.smtp.messages.length;
      expect((await api(c.a.url, 'POST', '/v2/user', { email })).status).toBe(201);
      const mail = await c.smtp.waitFor((m) => c.smtp.messages.indexOf(m) >= before && m.to.includes(email), 15_000);
      const confirm = await api(c.b.url, 'PUT', '/v2/user/confirm', { token: codeIn(mail), email });
      expect(confirm.status).toBe(200);
      const done = await api(
        c.a.url,
        'PUT',
        '/v2/user/complete-register',
        {
          first_name: 'Ida',
          last_name: 'Admin',
          password: PASSWORD,
          password_confirmation: PASSWORD,
          accepted_terms: { version: 1 },
        },
        bearer(confirm.body.token as string),
      );
      expect(done.status).toBe(200);
      const token = done.body.token as string;
      const me = await api(c.b.url, 'GET', '/v2/user/me', undefined, bearer(token));
      return { token, id: me.body._id as string };
    }

    const login = async (base: string, email: string) => {
      const res = await api(base, 'POST', '/auth/login', { login: email, password: PASSWORD });
      expect(res.status).toBe(200);
      return res.body.token as string;
    };

    beforeAll(async () => {
      ({ token: boss, id: bossId } = await registered('boss@initech-corp.com'));
      ({ id: personId } = await registered('milton@initech-corp.com'));
      // Granted as the operator does (bin/admin.ts writes the same row).
      await c
        .db()
        .query(`insert into domain_admins (domain, user_id, via, created_at) values ($1, $2, 'operator', $3)`, [
          'initech-corp.com',
          bossId,
          Date.now(),
        ]);
    });

    it('deactivated through one instance: the person’s next call on the other is refused', async () => {
      const session = await login(c.b.url, 'milton@initech-corp.com');
      expect((await api(c.b.url, 'GET', '/v2/user/me', undefined, bearer(session))).status).toBe(200);
      const off = await api(c.a.url, 'POST', `/admin/people/${personId}/deactivate`, {}, bearer(boss));
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      const next = await api(c.b.url, 'GET', '/v2/user/me', undefined, bearer(session));
      expect({ status: next.status, code: next.body.error_code }).toEqual({
        status: 401,
        code: 'ERR_INVALID_ACCESS_TOKEN',
      });
      const on = await api(c.b.url, 'POST', `/admin/people/${personId}/reactivate`, {}, bearer(boss));
      expect(on.status).toBe(200);
      // Reactivated: the old session stays ended on both.
      expect((await api(c.a.url, 'GET', '/v2/user/me', undefined, bearer(session))).status).toBe(401);
    });

    it('a session-lifetime policy set through one instance holds on both', async () => {
      const session = await login(c.a.url, 'milton@initech-corp.com');
      await c
        .db()
        .query(`update sessions set created_at = $1 where user_id = $2`, [Date.now() - 2 * 3_600_000, personId]);
      expect((await api(c.b.url, 'GET', '/v2/user/me', undefined, bearer(session))).status).toBe(200);
      const set = await api(
        c.b.url,
        'PUT',
        '/admin/domains/initech-corp.com/security-policy',
        { session_max_ms: 3_600_000 },
        bearer(boss),
      );
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      for (const base of [c.a.url, c.b.url]) {
        expect((await api(base, 'GET', '/v2/user/me', undefined, bearer(session))).status).toBe(401);
      }
      // The administrator's own fresh session is within the hour.
      expect((await api(c.a.url, 'GET', '/admin/me', undefined, bearer(boss))).status).toBe(200);
    });
  });
}
