/**
 * The adversarial suite, fifth review: this session's changes (the second factor asked on the
 * password-recovery path, the throttle slot given back before the answer is written, the team link in
 * the avatar menu, the mails' new buttons) attacked by someone who did not write them: as an
 * outsider holding a mailbox but not the authenticator, as a person of a personal (free-mail) account
 * or of another company's domain. One `it` per attack, named after it. An attack the product stops
 * asserts the refusal; an attack that succeeds asserts the secure behaviour and fails until fixed.
 * Real server (app.inject), real database (SQLite, and PostgreSQL under scripts/with-pg.sh), real SMTP
 * on loopback, real authenticator-app codes.
 */
import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import {
  type AccountsWorld,
  PASSWORD,
  call,
  changePassword,
  expectError,
  mailTo,
  mailsSoFar,
  pendingOf,
  recoverByMail,
  registered,
  secondStep,
  signIn,
  turnOnTotp,
  useWorld,
} from './accounts-helpers.js';
import { insertSignedInUser, logCapture } from './helpers.js';

const NEW = 'Taken-Over-77';

/** The new-password call of the recovery path: PUT /user/{id} with the recovery token. */
const newPassword = (w: AccountsWorld, token: string, id: string, extra: Record<string, string> = {}) =>
  changePassword(w, { id, token }, NEW, extra);

/** A six-digit code that is not the app's code at any step near now (so it is always wrong). */
async function wrongAppCode(secret: string): Promise<string> {
  const near = new Set(await Promise.all([-2, -1, 0, 1, 2].map((s) => currentCode(secret, Date.now() + s * 30_000))));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, '0');
    if (!near.has(c)) return c;
  }
}

describe('the second factor on the password-recovery path (the mailbox without the authenticator)', () => {
  const w = useWorld();

  it('a wrong code burns nothing and changes nothing; the right one still works once', async () => {
    const owner = await registered(w, 'burn@r5-rec.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const token = await recoverByMail(w, 'burn@r5-rec.test');
    expectError(
      await newPassword(w, token, owner.id, { code: await wrongAppCode(secret) }),
      400,
      'ERR_SECOND_STEP_INVALID',
    );
    // The old password is still the password, the owner's session lives.
    expect((await signIn(w, 'burn@r5-rec.test')).json().second_step).toBe('totp');
    expectError(await signIn(w, 'burn@r5-rec.test', NEW), 401, 'ERR_INVALID_CREDENTIALS');
    const done = await newPassword(w, token, owner.id, { code: await currentCode(secret) });
    expect(done.statusCode, done.body).toBe(200);
    // A completed sign-in: the device is remembered (never the trusted-browser skip: no box was ticked).
    expect(String(done.headers['set-cookie'])).toMatch(/^suite_device=/);
    // Single use: the same recovery token cannot set a password again (replay).
    const replay = await newPassword(w, token, owner.id, { code: await currentCode(secret, Date.now() + 30_000) });
    expect(replay.statusCode, replay.body).toBe(401);
  });

  it('a recovery code used on the recovery path is spent: the sign-in second step refuses it after', async () => {
    const owner = await registered(w, 'spent@r5-rec.test');
    const { recovery } = await turnOnTotp(w, owner.token);
    const token = await recoverByMail(w, 'spent@r5-rec.test');
    const done = await newPassword(w, token, owner.id, { code: recovery[0]! });
    expect(done.statusCode, done.body).toBe(200);
    const pending = await pendingOf(w, 'spent@r5-rec.test', NEW);
    expectError(await secondStep(w, 'spent@r5-rec.test', pending, recovery[0]!), 400, 'ERR_SECOND_STEP_INVALID');
  });

  it("a recovery token cannot set another account's password, nor sign in anywhere else", async () => {
    const mallory = await registered(w, 'mallory@r5-other.test');
    const victim = await registered(w, 'victim@r5-rec.test');
    const token = await recoverByMail(w, 'mallory@r5-other.test');
    void mallory;
    expectError(await newPassword(w, token, victim.id), 403, 'ERR_FORBIDDEN');
    expect((await signIn(w, 'victim@r5-rec.test')).statusCode).toBe(200);
    // Not a session: the signed-in routes refuse it.
    expect((await call(w.app, { method: 'GET', url: '/v2/user/me', token })).statusCode).toBe(401);
    expect((await call(w.app, { method: 'GET', url: '/invite/url', token })).statusCode).toBe(401);
    expect(
      (
        await call(w.app, {
          method: 'POST',
          url: '/v2/user/totp/disable',
          token,
          body: { password: PASSWORD, code: '000000' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('the recovery token alone, with an empty or blank code, changes nothing on a two-step account', async () => {
    const owner = await registered(w, 'blank@r5-rec.test');
    await turnOnTotp(w, owner.token);
    const token = await recoverByMail(w, 'blank@r5-rec.test');
    expectError(await newPassword(w, token, owner.id, { code: '   ' }), 400, 'ERR_SECOND_FACTOR_REQUIRED');
    expect((await signIn(w, 'blank@r5-rec.test')).json().second_step).toBe('totp');
  });
});

// Real limits; each attack in a world of its own (the per-IP limits of one would spill into the next).
describe('guessing the second factor through the recovery path: bounded', () => {
  const w = useWorld({ RATE_LIMIT_SCALE: '1' });

  it('wrong codes on the recovery path are bounded: past ten, the guesses are refused', async () => {
    const owner = await registered(w, 'bound@r5-lim.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const token = await recoverByMail(w, 'bound@r5-lim.test');
    const wrong = await wrongAppCode(secret);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await newPassword(w, token, owner.id, { code: wrong })).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('guessing the second factor through the recovery path: the alarm', () => {
  const w = useWorld({ RATE_LIMIT_SCALE: '1' });

  it("wrong codes on the recovery path tell the owner, as the sign-in's second step does", async () => {
    const owner = await registered(w, 'alarm@r5-lim.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const token = await recoverByMail(w, 'alarm@r5-lim.test');
    const before = await mailsSoFar(w);
    const wrong = await wrongAppCode(secret);
    for (let i = 0; i < 10; i++) {
      expectError(await newPassword(w, token, owner.id, { code: wrong }), 400, 'ERR_SECOND_STEP_INVALID');
    }
    await mailsSoFar(w);
    const alarms = w.smtp.messages
      .slice(before)
      .filter((m) => m.to.includes('alarm@r5-lim.test') && /password/i.test(m.subject ?? ''));
    expect(alarms.length, 'no alarm mail after ten wrong second-factor codes on the recovery path').toBe(1);
    // The stranger there read a reset code from the mailbox: the mail says so, not "knows your password".
    expect(alarms[0]?.subject).toMatch(/trying to reset your .* password/);
    expect(alarms[0]?.text).toMatch(/secure your mailbox/);
    expect(alarms[0]?.subject).not.toMatch(/knows your/);
  });
});

describe('guessing the second factor through the recovery path: one budget', () => {
  const w = useWorld({ RATE_LIMIT_SCALE: '1' });

  it("the sign-in's spent second-step guesses are not renewed by the recovery path", async () => {
    const owner = await registered(w, 'shared@r5-lim.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const wrong = await wrongAppCode(secret);
    // Ten wrong codes at the sign-in's second step: this client's guesses for the address are spent.
    for (let i = 0; i < 10; i++) {
      const pending = await pendingOf(w, 'shared@r5-lim.test');
      expect((await secondStep(w, 'shared@r5-lim.test', pending, wrong)).statusCode).toBe(400);
    }
    const pending = await pendingOf(w, 'shared@r5-lim.test');
    expect((await secondStep(w, 'shared@r5-lim.test', pending, wrong)).statusCode).toBe(429);
    // The same person, holding the mailbox, tries the same factor by the recovery path.
    const token = await recoverByMail(w, 'shared@r5-lim.test');
    expect((await newPassword(w, token, owner.id, { code: wrong })).statusCode).toBe(429);
  });
});

/** A signed-in personal (free-mail) account, as an invitation or a meeting leaves one. */
async function personal(w: AccountsWorld, email: string) {
  const user = await insertSignedInUser(w.app, { email, first: 'So', last: 'Lo' });
  await w.app.db.kysely
    .updateTable('users')
    .set({ domain: email.split('@')[1]! })
    .where('id', '=', user.id)
    .execute();
  return user;
}

describe('the team link and teammates for a personal account or another tenant', () => {
  const w = useWorld();

  it('a personal (free-mail) account gets no team link: GET, POST and DELETE are refused', async () => {
    const gmail = await personal(w, 'solo@gmail.com');
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expectError(await call(w.app, { method, url: '/invite/url', token: gmail.token }), 403, 'ERR_FORBIDDEN');
    }
    expect(await w.app.db.kysely.selectFrom('team_links').selectAll().execute()).toEqual([]);
  });

  it('a personal account cannot invite anyone', async () => {
    const gmail = await personal(w, 'solo2@gmail.com');
    const res = await call(w.app, {
      method: 'POST',
      url: '/invite/teammates',
      token: gmail.token,
      body: { emails: ['friend@gmail.com'] },
    });
    expectError(res, 403, 'ERR_FORBIDDEN');
  });

  it("inviting another company's address is refused and sends nothing", async () => {
    const ana = await registered(w, 'ana@r5-acme.test');
    const before = await mailsSoFar(w);
    const res = await call(w.app, {
      method: 'POST',
      url: '/invite/teammates',
      token: ana.token,
      body: { emails: ['bob@r5-globex.test'] },
    });
    expect(res.statusCode).toBe(400);
    expect(['ERR_NO_SAME_DOMAIN_EMAIL', 'ERR_TEAMMATE_DOMAIN']).toContain(res.json().error_code);
    await mailsSoFar(w);
    expect(w.smtp.messages.slice(before).filter((m) => m.to.includes('bob@r5-globex.test'))).toEqual([]);
  });

  /** A sign-up with a team link's token (the sign-up screen opened from the link). */
  const signUpWith = (email: string, inviteToken: string) =>
    call(w.app, { method: 'POST', url: '/v2/user', body: { email, invite_token: inviteToken } });
  const teamLinkToken = async (token: string) => {
    const res = await call(w.app, { method: 'GET', url: '/invite/url', token });
    expect(res.statusCode, res.body).toBe(200);
    return new URL(res.json().url as string).searchParams.get('inviteToken')!;
  };
  const accountOf = (email: string) =>
    w.app.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();

  it("one company's team link admits no address of another company, nor a personal one", async () => {
    const ana = await registered(w, 'ana@r5-tl-acme.test');
    const link = await teamLinkToken(ana.token);
    for (const email of ['bob@r5-tl-globex.test', 'pal@gmail.com']) {
      const res = await signUpWith(email, link);
      expect(res.statusCode, `${email}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(await accountOf(email)).toBeUndefined();
    }
    // The company's own address is admitted (the link works: the refusals above were about the address).
    expect((await signUpWith('carl@r5-tl-acme.test', link)).statusCode).toBe(201);
  });

  it("another company's person cannot turn off or replace a team link that is not theirs", async () => {
    const ana = await registered(w, 'ana2@r5-tl2-acme.test');
    const link = await teamLinkToken(ana.token);
    const eve = await registered(w, 'eve@r5-tl2-globex.test');
    expect((await call(w.app, { method: 'DELETE', url: '/invite/url', token: eve.token })).statusCode).toBe(200);
    expect((await call(w.app, { method: 'POST', url: '/invite/url', token: eve.token })).statusCode).toBe(200);
    // Eve acted on her own link only: Ana's still admits her colleagues.
    expect((await signUpWith('dan@r5-tl2-acme.test', link)).statusCode).toBe(201);
  });

  it('a team link turned off admits nobody, at once', async () => {
    const ana = await registered(w, 'ana3@r5-tl3-acme.test');
    const link = await teamLinkToken(ana.token);
    expect((await call(w.app, { method: 'DELETE', url: '/invite/url', token: ana.token })).statusCode).toBe(200);
    expectError(await signUpWith('fay@r5-tl3-acme.test', link), 400, 'ERR_INVITE_LINK_OFF');
    expect(await accountOf('fay@r5-tl3-acme.test')).toBeUndefined();
  });

  it("the teammates answer does not tell whether another company's address has an account", async () => {
    const ana = await registered(w, 'ana4@r5-en-acme.test');
    await registered(w, 'known@r5-en-globex.test');
    const invite = (emails: string[]) =>
      call(w.app, { method: 'POST', url: '/invite/teammates', token: ana.token, body: { emails } });
    const known = await invite(['known@r5-en-globex.test', 'gil@r5-en-acme.test']);
    const unknown = await invite(['nobody@r5-en-globex.test', 'gil@r5-en-acme.test']);
    expect(known.statusCode).toBe(400);
    expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({
      status: known.statusCode,
      body: known.json(),
    });
  });

  it("the team link's URL is this site's sign-up page and its token names no address", async () => {
    const ana = await registered(w, 'link@r5-acme.test');
    const res = await call(w.app, { method: 'GET', url: '/invite/url', token: ana.token });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().url as string);
    expect(url.origin).toBe(new URL(w.t.config.publicUrl).origin);
    expect(url.pathname).toBe('/user/signup');
    expect(decodeURIComponent(url.search)).not.toContain('link@r5-acme.test');
  });
});

describe("the mails' new buttons", () => {
  const w = useWorld({ RATE_LIMIT_SCALE: '1' });

  /** Every http(s) link of a mail's HTML. */
  const linksOf = (html: string) =>
    [...html.matchAll(/href="(https?:[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

  it('the password alarm and the factor notice link to this site only, with no token in the alarm', async () => {
    const owner = await registered(w, 'mail@r5-mail.test');
    const sent = await mailsSoFar(w);
    const { secret } = await turnOnTotp(w, owner.token);
    const origin = new URL(w.t.config.publicUrl).origin;
    const notice = await mailTo(w.smtp, 'mail@r5-mail.test', sent);
    for (const href of linksOf(notice.html ?? '')) expect(new URL(href).origin).toBe(origin);
    // Its "this wasn't me" link carries the token in the fragment: never sent to a server, not in logs.
    const notMe = linksOf(notice.html)
      .map((href) => new URL(href))
      .find((u) => u.pathname === '/security/not-me');
    expect(notMe?.search).toBe('');
    expect(notMe?.hash.length).toBeGreaterThan(20);
    const before = await mailsSoFar(w);
    const wrong = await wrongAppCode(secret);
    for (let i = 0; i < 10; i++) {
      const pending = await pendingOf(w, 'mail@r5-mail.test');
      expect((await secondStep(w, 'mail@r5-mail.test', pending, wrong)).statusCode).toBe(400);
    }
    const alarm = await mailTo(w.smtp, 'mail@r5-mail.test', before);
    const links = linksOf(alarm.html ?? '');
    expect(links).toContain(`${origin}/user/recovery-password`);
    for (const href of links) {
      const u = new URL(href);
      expect(u.origin).toBe(origin);
      // The alarm is mailed to whoever holds the address: it must carry no secret for the account.
      if (u.pathname === '/user/recovery-password') expect(u.search).toBe('');
    }
  });
});

describe("the throttle's slot given back before the answer (ceiling 10 per address, over a real socket)", () => {
  const log = logCapture();
  const w = useWorld({ RATE_LIMIT_SCALE: '0.1', TRUST_PROXY: '1' }, { logger: { level: 'warn', stream: log.stream } });
  const slowed = () => log.lines.filter((l) => l.includes('address throttled: slowing down')).length;
  const refusedByLog = () => log.lines.filter((l) => l.includes('address throttled: refused')).length;
  let port = 0;
  /** A raw HTTP/1.1 login request from `ip` (behind the one trusted proxy hop). */
  const raw = (ip: string, password: string) => {
    const body = JSON.stringify({ login: 'slot@r5-slot.test', password });
    return (
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `X-Forwarded-For: ${ip}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    );
  };
  const loginFrom = (ip: string, password: string) =>
    w.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-forwarded-for': ip },
      payload: { login: 'slot@r5-slot.test', password },
    });

  it('a guess aborted while it waits gives the slot back: the next stranger is slowed, not refused', async () => {
    await registered(w, 'slot@r5-slot.test');
    await w.app.listen({ port: 0, host: '127.0.0.1' });
    port = (w.app.server.address() as AddressInfo).port;
    for (let i = 1; i <= 10; i++) expect((await loginFrom(`192.0.2.${i}`, 'Wrong-1')).statusCode).toBe(401);
    const before = slowed();
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(raw('192.0.5.1', 'Wrong-1'));
    await vi.waitUntil(() => slowed() > before, { timeout: 10_000, interval: 5 });
    socket.destroy();
    // The slot lives SLOT_TTL_MS (12 s) if nothing gives it back; the aborted guess's own answer does,
    // once its delay is over (at most SLOWDOWN_MAX_MS).
    await vi.waitFor(
      async () =>
        expect((await loginFrom(`192.0.6.${Math.floor(Math.random() * 250)}`, 'Wrong-1')).statusCode).toBe(401),
      { timeout: 8_000, interval: 100 },
    );
  });

  it('two guesses pipelined on one connection are never slowed at the same time', async () => {
    const answers: string[] = [];
    const [slowedBefore, refusedBefore] = [slowed(), refusedByLog()];
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString();
      answers.splice(0, answers.length, ...(received.match(/HTTP\/1\.1 \d{3}/g) ?? []));
    });
    socket.write(raw('192.0.7.1', 'Wrong-1') + raw('192.0.7.2', 'Wrong-1'));
    await vi.waitUntil(() => answers.length === 2, { timeout: 15_000, interval: 10 });
    socket.destroy();
    // Node reads both at once and runs them side by side: the first holds the address's one slot and is
    // slowed, the second is refused at once. Two slowed guesses would be two guesses at a time.
    expect([...answers].sort()).toEqual(['HTTP/1.1 401', 'HTTP/1.1 429']);
    expect([slowed() - slowedBefore, refusedByLog() - refusedBefore]).toEqual([1, 1]);
  });
});
