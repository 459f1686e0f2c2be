import { beforeAll, describe, expect, it } from 'vitest';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import { codeIn, type SmtpFixture } from '../test/smtp.js';
import { api, until, type Answer, type Instance } from './cluster.js';

/** What the scale-out suite's cluster gives these tests (read once its start is done). */
export interface DeviceTrustCluster {
  a: Instance;
  b: Instance;
  smtp: SmtpFixture;
  /** True when the outbox has nothing left to send. */
  outboxDrained: () => Promise<boolean>;
  /** Makes every session of the address look proved long ago (the test's way past the 10 minutes). */
  ageProofs: (email: string) => Promise<void>;
}

const PASSWORD = 'Correct-Horse-42';
/** A recovery-code-shaped guess: checked and wrong. */
const WRONG_CODE = 'aaaaa-aaaaa';

/**
 * Device trust and the second-step alarm over two instances on one PostgreSQL
 * and Redis: what one instance decides (a sign-out of all devices, a wrong code) counts on the other,
 * because the credential generation is in the database and the counters in Redis, never in an
 * instance's memory.
 */
export function deviceTrustAcrossInstances(cluster: () => DeviceTrustCluster): void {
  describe('device trust and the second-step alarm across the two instances', () => {
    let c: DeviceTrustCluster;
    beforeAll(() => {
      c = cluster();
    });

    const from = (ip: string, cookie = '') => ({ 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) });
    const deviceCookie = (res: Answer) =>
      (res.headers.getSetCookie().find((h) => h.startsWith('suite_device=')) ?? '').split(';')[0]!;
    /** The password step of a sign-in on the instance at `base`, from `ip`, with the browser's `cookie`. */
    const login = (base: string, email: string, ip: string, cookie = '') =>
      api(base, 'POST', '/auth/login', { login: email, password: PASSWORD }, from(ip, cookie));
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    /** Sign-up on `a`, code and welcome step on `b`: an account that logs in with PASSWORD; its session. */
    async function account(email: string): Promise<string> {
      const before = c.smtp.messages.length;
      expect((await api(c.a.url, 'POST', '/v2/user', { email })).status).toBe(201);
      const mail = await c.smtp.waitFor((m) => c.smtp.messages.indexOf(m) >= before && m.to.includes(email), 15_000);
      const confirmed = await api(c.b.url, 'PUT', '/v2/user/confirm', { token: codeIn(mail), email });
      expect(confirmed.status).toBe(200);
      const done = await api(
        c.b.url,
        'PUT',
        '/v2/user/complete-register',
        {
          first_name: 'Dev',
          last_name: 'Ice',
          password: PASSWORD,
          password_confirmation: PASSWORD,
          accepted_terms: { version: 1 },
        },
        { authorization: `Bearer ${confirmed.body.token as string}` },
      );
      expect(done.status).toBe(200);
      return done.body.token as string;
    }

    /**
     * The authenticator app turned on: set up on `a`, enabled on `enableOn`; its secret. Enabled with the
     * code of the step before, so that the current step stays free for the test's own sign-in.
     */
    async function turnOnTotp(token: string, enableOn: string): Promise<string> {
      const setup = await api(c.a.url, 'POST', '/v2/user/totp/setup', undefined, bearer(token));
      const secret = setup.body.secret as string;
      const code = await currentCode(secret, Date.now() - 30_000);
      const on = await api(enableOn, 'POST', '/v2/user/totp/enable', { code }, bearer(token));
      expect(on.status).toBe(200);
      return secret;
    }

    it('10 wrong two-step codes, half on each instance, mail the owner once; 10 more in the window, no second mail', async () => {
      const email = 'alarm@contoso.com';
      await turnOnTotp(await account(email), c.b.url);
      for (let round = 0; round < 4; round++) {
        // A pending step made on one instance, its codes answered on both.
        const ip = `203.0.113.${round + 1}`;
        const step = await login(round % 2 ? c.b.url : c.a.url, email, ip);
        expect(step.body.second_step).toBe('totp');
        // The password alone earns no device cookie, on either instance.
        expect(deviceCookie(step)).toBe('');
        for (let guess = 0; guess < 5; guess++) {
          const res = await api(
            guess % 2 ? c.a.url : c.b.url,
            'POST',
            '/auth/login/second-step',
            { email, pending_token: step.body.pending_token, code: WRONG_CODE },
            from(ip),
          );
          expect([400, 401]).toContain(res.status);
        }
      }
      await until(c.outboxDrained, 'the outbox drained');
      const alarms = c.smtp.messages.filter((m) => m.to.includes(email) && m.subject.startsWith('Someone knows your'));
      expect(alarms).toHaveLength(1);
    });

    it('trust earned on one instance is honoured on the other, and a sign-out of all devices on either ends it', async () => {
      const email = 'device@contoso.com';
      await account(email);
      const signedIn = await login(c.a.url, email, '198.51.100.60');
      expect(signedIn.status).toBe(200);
      const cookie = deviceCookie(signedIn);
      expect(cookie).not.toBe('');
      let client = 0;
      const check = (base: string, ip: string, withCookie = '') =>
        api(base, 'PUT', '/v2/user/forgot-password/confirm', { email, token: '000000' }, from(ip, withCookie));
      // The address's ceiling (100 failures) reached from 10 clients, on both instances.
      for (let i = 0; i < 100; i++)
        expect((await check(i % 2 ? c.a.url : c.b.url, `192.0.2.${(i % 10) + 1}`)).status).toBe(400);
      // Past it, two strangers' checks one at a time (each delayed longer than the last).
      for (let i = 0; i < 2; i++) expect((await check(c.a.url, `192.0.2.${20 + i}`)).status).toBe(400);
      /** How many checks instance B has said it slows down (each holds the address's one slot meanwhile). */
      const slowedOnB = () => c.b.output.split('address throttled: slowing down').length - 1;
      /** While a stranger's delayed check holds the address's one slot: does `cookie` get through on `base`? */
      const throughWhileHeld = async (base: string, withCookie: string) => {
        const before = slowedOnB();
        const stranger = check(c.b.url, `192.0.2.${30 + client++}`);
        await until(() => slowedOnB() > before, 'a stranger holding the slot', 5_000);
        const res = await check(base, `198.51.100.${70 + client++}`, withCookie);
        expect((await stranger).status).toBe(400);
        expect([400, 429]).toContain(res.status);
        return res.status === 400;
      };
      expect(await throughWhileHeld(c.b.url, cookie)).toBe(true);
      expect(await throughWhileHeld(c.b.url, '')).toBe(false);
      const out = await api(c.b.url, 'POST', '/auth/logout-all', undefined, bearer(signedIn.body.token as string));
      expect(out.status).toBe(200);
      expect(await throughWhileHeld(c.a.url, cookie)).toBe(false);
      const again = await login(c.b.url, email, '198.51.100.60', cookie);
      expect(await throughWhileHeld(c.a.url, deviceCookie(again))).toBe(true);
    });

    it('"Trust this browser" earned on one instance skips the code on the other, until a sign-out of all devices there', async () => {
      const email = 'trusted@contoso.com';
      const secret = await turnOnTotp(await account(email), c.a.url);
      const step = await login(c.a.url, email, '198.51.100.90');
      expect(step.body).toMatchObject({ second_step: 'totp', trust_allowed: true });
      const done = await api(
        c.b.url,
        'POST',
        '/auth/login/second-step',
        { email, pending_token: step.body.pending_token, code: await currentCode(secret), trust_browser: true },
        from('198.51.100.90'),
      );
      expect(done.status).toBe(200);
      const trusted = (done.headers.getSetCookie().find((h) => h.startsWith('suite_trusted=')) ?? '').split(';')[0]!;
      expect(trusted).not.toBe('');
      for (const base of [c.a.url, c.b.url]) {
        const skipped = await login(base, email, '198.51.100.90', trusted);
        expect(typeof skipped.body.token).toBe('string');
      }
      const out = await api(c.a.url, 'POST', '/auth/logout-all', undefined, bearer(done.body.token as string));
      expect(out.status).toBe(200);
      const asked = await login(c.b.url, email, '198.51.100.90', trusted);
      expect(asked.body).toMatchObject({ second_step: 'totp' });
    });

    it('a fresh proof given on one instance opens a factor change on the other; a stale session is refused on both', async () => {
      const email = 'proof@contoso.com';
      const auth = bearer(await account(email));
      await c.ageProofs(email);
      for (const base of [c.a.url, c.b.url]) {
        const refused = await api(base, 'POST', '/v2/user/totp/setup', undefined, auth);
        expect(refused.status).toBe(403);
        expect(refused.body.error_code).toBe('ERR_PROOF_REQUIRED');
      }
      const proved = await api(c.a.url, 'POST', '/v2/user/reauth', { method: 'password', password: PASSWORD }, auth);
      expect(proved.status, JSON.stringify(proved.body)).toBe(200);
      const setup = await api(c.b.url, 'POST', '/v2/user/totp/setup', undefined, auth);
      expect(setup.status, JSON.stringify(setup.body)).toBe(200);
      expect(typeof setup.body.secret).toBe('string');
    });
  });
}
