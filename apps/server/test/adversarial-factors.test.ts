/**
 * The adversarial suite, sign-in policy and factor changes: each finding replayed as the review did it,
 * asserting what the attacker gets. Real server (app.inject), real database, real SMTP on loopback,
 * a real software authenticator for passkeys, real authenticator-app codes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { accountsAdmin } from '../src/modules/accounts/index.js';
import { accountsDeps } from '../src/modules/accounts/deps.js';
import { usersRepository } from '../src/modules/accounts/identity/repository.js';
import { login as passwordLogin } from '../src/modules/accounts/strategies/password/sign-in.js';
import { currentCode } from '../src/modules/accounts/strategies/totp/secrets.js';
import {
  PASSWORD,
  addPasskey,
  admin,
  anotherSession,
  call,
  changePassword,
  decodeSession,
  expectError,
  mailTo,
  mailsSoFar,
  notMeToken,
  outboxDrained,
  passkeyLogin,
  passkeyOptions,
  pendingOf,
  recoverByMail,
  registered,
  secondStep,
  signIn,
  staled,
  turnOnTotp,
  useWorld,
} from './accounts-helpers.js';

/** Counts the statements a Kysely instance runs, with their SQL. */
class StatementLog implements KyselyPlugin {
  readonly kinds: string[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    const table =
      node.kind === 'SelectQueryNode'
        ? JSON.stringify(node.from?.froms ?? [])
        : node.kind === 'InsertQueryNode' || node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode'
          ? JSON.stringify(node)
          : '';
    const named = /"identifier":\{"kind":"IdentifierNode","name":"([a-z_]+)"\}/.exec(table)?.[1] ?? '?';
    this.kinds.push(`${node.kind}:${named}`);
    return node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

const w = useWorld();

const db = () => w.app.db.kysely;
const userIdOf = (token: string) => decodeSession(token).user._id;
const me = (token: string) => call(w.app, { method: 'GET', url: '/v2/user/me', token });
const security = async (token: string) =>
  (await call(w.app, { method: 'GET', url: '/v2/user/security', token })).json();

const sessionRow = (token: string) =>
  db()
    .selectFrom('sessions')
    .select(['amr', 'aal', 'method'])
    .where('user_id', '=', userIdOf(token))
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();

describe('Policy: one sign-in policy decides', () => {
  it('every method is one folder under strategies/ that declares what it proves and is registered once', () => {
    const root = join(import.meta.dirname, '../src/modules/accounts/strategies');
    const registry = readFileSync(join(root, 'index.ts'), 'utf8');
    const folders = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
    // OpenID Connect and SAML declare theirs in strategies/method.ts (ssoMethod) and are served by sso/.
    const own = folders.filter((d) => !['oidc', 'saml'].includes(d.name));
    expect(own.length).toBeGreaterThanOrEqual(5);
    for (const folder of own) {
      expect(existsSync(join(root, folder.name, 'method.ts')), folder.name).toBe(true);
      expect(existsSync(join(root, folder.name, 'routes.ts')), folder.name).toBe(true);
      expect(registry, folder.name).toContain(`'./${folder.name}/routes.js'`);
    }
    // The policy reads declarations only: it names no method.
    const policy = readFileSync(join(root, '../policy/index.ts'), 'utf8');
    expect(policy).not.toMatch(/strategies\/(password|totp|webauthn|email-code|recovery-code)/);
    expect(readFileSync(join(root, '../login/finish.ts'), 'utf8')).not.toMatch(/method === 'password'/);
  });

  // The domain's rules and its console policy are one read; the audit event is written with the session.
  it('reads the domain rule once per password login: 6 statements, each table once', async () => {
    await registered(w, 'count@policy.test');
    const log = new StatementLog();
    const deps = { ...accountsDeps(w.app, w.t.config), db: db().withPlugin(log) };
    const done = await passwordLogin(deps, { login: 'count@policy.test', password: PASSWORD });
    expect('token' in done).toBe(true);
    expect(log.kinds.filter((k) => k.endsWith(':domains'))).toHaveLength(1);
    expect(log.kinds).toHaveLength(6);
    expect(new Set(log.kinds).size, log.kinds.join(' ')).toBe(6);
    expect(log.kinds).toContain('InsertQueryNode:audit_events');
  });

  it('issues every session with its amr and assurance: password AAL1, password + app AAL2, passkey AAL2', async () => {
    const { token } = await registered(w, 'levels@policy.test');
    expect(await sessionRow(token)).toMatchObject({ aal: 1 });
    const password = await anotherSession(w, 'levels@policy.test');
    expect(await sessionRow(password)).toMatchObject({ amr: 'password', aal: 1, method: 'password' });
    const { res, key } = await addPasskey(w, password);
    expect(res.statusCode, res.body).toBe(200);
    const byKey = await passkeyLogin(w, key);
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(await sessionRow(byKey.json().token)).toMatchObject({ amr: 'passkey', aal: 2, method: 'passkey' });
    const { secret } = await turnOnTotp(w, byKey.json().token);
    const pending = await signIn(w, 'levels@policy.test');
    expect(pending.json().second_step).toBe('totp');
    const done = await call(w.app, {
      method: 'POST',
      url: '/auth/login/second-step',
      body: {
        email: 'levels@policy.test',
        pending_token: pending.json().pending_token,
        code: await currentCode(secret),
      },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await sessionRow(done.json().token)).toMatchObject({ amr: 'password,totp', aal: 2 });
  });
});

describe('F7 a stolen session becomes a permanent takeover', () => {
  it('with only a stolen session token (no fresh proof) the thief cannot turn two-step on or add a passkey', async () => {
    const owner = await registered(w, 'owner@f7.test');
    const stolen = await staled(w, await anotherSession(w, 'owner@f7.test'));
    expectError(
      await call(w.app, { method: 'POST', url: '/v2/user/totp/setup', token: stolen }),
      403,
      'ERR_PROOF_REQUIRED',
    );
    expectError(await passkeyOptions(w, stolen), 403, 'ERR_PROOF_REQUIRED');
    // A registration answer made for a challenge of a fresh moment is refused too.
    expectError(
      await call(w.app, {
        method: 'POST',
        url: '/v2/user/passkeys',
        token: stolen,
        body: {
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
            clientExtensionResults: {},
          },
        },
      }),
      403,
      'ERR_PROOF_REQUIRED',
    );
    expectError(
      await call(w.app, { method: 'POST', url: '/v2/user/recovery-codes', token: stolen, body: { code: '123456' } }),
      403,
      'ERR_PROOF_REQUIRED',
    );
    // Guessing the password at the re-authentication changes nothing.
    expectError(
      await call(w.app, {
        method: 'POST',
        url: '/v2/user/reauth',
        token: stolen,
        body: { method: 'password', password: 'guess-1234' },
      }),
      400,
      'ERR_WRONG_CURRENT_PASSWORD',
    );
    expectError(await passkeyOptions(w, stolen), 403, 'ERR_PROOF_REQUIRED');
    const state = await security(owner.token);
    expect(state).toMatchObject({ passkeys: [], totp: false, reauth: ['password'] });
  });

  it('the owner proves it is them again (password) and may then make the change; other sessions end', async () => {
    const owner = await staled(w, (await registered(w, 'prove@f7.test')).token);
    const other = await anotherSession(w, 'prove@f7.test');
    await staled(w, owner);
    expectError(await passkeyOptions(w, owner), 403, 'ERR_PROOF_REQUIRED');
    const proof = await call(w.app, {
      method: 'POST',
      url: '/v2/user/reauth',
      token: owner,
      body: { method: 'password', password: PASSWORD },
    });
    expect(proof.statusCode, proof.body).toBe(200);
    const before = await mailsSoFar(w);
    const { res } = await addPasskey(w, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(owner)).statusCode).toBe(200);
    await notMeToken(w, 'prove@f7.test', before);
  });

  it('"this wasn\'t me" removes the thief\'s fresh passkey and app, ends every session, works once', async () => {
    const owner = await registered(w, 'victim@f7.test');
    // The thief copied a session minutes after its sign-in: still fresh, so the change goes through…
    const thief = await anotherSession(w, 'victim@f7.test');
    let before = await mailsSoFar(w);
    const { res, key } = await addPasskey(w, thief);
    expect(res.statusCode, res.body).toBe(200);
    const passkeyLink = await notMeToken(w, 'victim@f7.test', before);
    expect((await me(owner.token)).statusCode).toBe(401);
    before = await mailsSoFar(w);
    await turnOnTotp(w, thief);
    const totpLink = await notMeToken(w, 'victim@f7.test', before);
    // …and the owner's mail undoes it.
    const revert = (token: string) => call(w.app, { method: 'POST', url: '/v2/user/factor-revert', body: { token } });
    expect((await revert(passkeyLink)).statusCode).toBe(200);
    expectError(await revert(passkeyLink), 400, 'ERR_REVERT_INVALID');
    // One link undoes every change of the account still open to it: the app's link is spent with it.
    expectError(await revert(totpLink), 400, 'ERR_REVERT_INVALID');
    expect((await me(thief)).statusCode).toBe(401);
    expectError(await passkeyLogin(w, key), 401, 'ERR_PASSKEY_UNKNOWN');
    const back = await signIn(w, 'victim@f7.test');
    expect(back.statusCode, back.body).toBe(200);
    expect(typeof back.json().token).toBe('string');
    expect(await security(back.json().token)).toMatchObject({ passkeys: [], totp: false });
    expectError(await revert('not-a-token'), 400, 'ERR_REVERT_INVALID');
  });

  it("after the owner's password change or sign-out of all devices nothing of the thief's remains", async () => {
    const owner = await registered(w, 'change@f7.test');
    const thief = await staled(w, await anotherSession(w, 'change@f7.test'));
    expectError(await passkeyOptions(w, thief), 403, 'ERR_PROOF_REQUIRED');
    const changed = await changePassword(w, owner, 'Brand-New-Pass-9');
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(thief)).statusCode).toBe(401);
    expect(await security(owner.token)).toMatchObject({ passkeys: [], totp: false });

    const second = await staled(w, await anotherSession(w, 'change@f7.test', 'Brand-New-Pass-9'));
    expect((await call(w.app, { method: 'POST', url: '/auth/logout-all', token: owner.token })).statusCode).toBe(200);
    // At once, the session that asked included.
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(owner.token)).statusCode).toBe(401);
    const live = await db()
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', owner.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it('an operator resets two-step verification and passkeys (users reset-factors), mailed to the person', async () => {
    const owner = await registered(w, 'reset@f7.test');
    const { res } = await addPasskey(w, owner.token);
    expect(res.statusCode, res.body).toBe(200);
    await turnOnTotp(w, owner.token);
    const before = await mailsSoFar(w);
    expect(await admin(w, 'users', 'reset-factors', 'reset@f7.test')).toContain(
      'reset@f7.test: two-step verification off',
    );
    expect(await accountsAdmin(db()).resetFactors(w.t.config, 'nobody@f7.test')).toBe(false);
    const mail = await mailTo(w.smtp, 'reset@f7.test', before);
    expect(mail.subject).toBe('Your Suite two-step verification and passkeys were reset');
    expect((await me(owner.token)).statusCode).toBe(401);
    const back = await signIn(w, 'reset@f7.test');
    expect(typeof back.json().token).toBe('string');
    expect(await security(back.json().token)).toMatchObject({ passkeys: [], totp: false });
  });
});

describe('F8 passkeys bypass an SSO-only domain', () => {
  it('an employee who added a passkey cannot sign in with it once the domain is SSO-only, nor add another', async () => {
    const owner = await registered(w, 'emp@f8-corp.test');
    const { res, key } = await addPasskey(w, owner.token);
    expect(res.statusCode, res.body).toBe(200);
    const session = (await passkeyLogin(w, key)).json().token as string;
    await accountsAdmin(db()).setDomain('f8-corp.test', { ssoOnly: true });
    expectError(await passkeyLogin(w, key), 403, 'ERR_SSO_ONLY_METHOD');
    expectError(await signIn(w, 'emp@f8-corp.test'), 403, 'ERR_SSO_LOGIN_ONLY');
    expectError(await passkeyOptions(w, session), 403, 'ERR_SSO_ONLY_METHOD');
    expectError(await call(w.app, { method: 'POST', url: '/v2/user/totp/setup', token: session }), 403, 'ERR_TOTP_SSO');
    expectError(
      await call(w.app, {
        method: 'POST',
        url: '/v2/user/reauth',
        token: session,
        body: { method: 'password', password: PASSWORD },
      }),
      403,
      'ERR_SSO_LOGIN_ONLY',
    );
    expect((await security(session)).reauth).toEqual(['sso']);
    // No recovery by mail either: the answer is the same, and no code is mailed.
    const before = await mailsSoFar(w);
    const recovery = await call(w.app, {
      method: 'POST',
      url: '/v2/user/forgot-password',
      body: { email: 'emp@f8-corp.test' },
    });
    expect(recovery.statusCode).toBe(200);
    await outboxDrained(w);
    expect(w.smtp.messages.slice(before).filter((m) => m.to.includes('emp@f8-corp.test'))).toEqual([]);
  });
});

/** An account as a first single sign-on makes it: confirmed, no password; registered once its terms are taken. */
async function ssoCreated(email: string, registeredToo: boolean): Promise<string> {
  const users = usersRepository(db());
  const id = await users.create({
    email,
    domain: email.split('@')[1]!,
    language: 'en',
    profileType: 'PROFESSIONAL',
    confirmed: true,
    invitedBy: null,
  });
  await users.setNames(id, 'Sso', 'Person');
  if (registeredToo) await users.completeSsoRegistration(id, 1);
  return id;
}

describe('F12 the sign-up code signs an SSO-created account in', () => {
  const resend = (email: string) =>
    call(w.app, { method: 'PUT', url: '/v2/user/resend_confirmation', body: { email } });
  const confirm = (email: string, token: string) =>
    call(w.app, { method: 'PUT', url: '/v2/user/confirm', body: { email, token } });

  it('a registered SSO account gets no code and no session from the sign-up code step', async () => {
    await ssoCreated('sso@f12-open.test', true);
    const before = await mailsSoFar(w);
    expectError(await resend('sso@f12-open.test'), 400, 'ERR_USER_ALREADY_CONFIRMED');
    expectError(await confirm('sso@f12-open.test', '123456'), 400, 'ERR_USER_ALREADY_CONFIRMED');
    await outboxDrained(w);
    expect(w.smtp.messages.slice(before).filter((m) => m.to.includes('sso@f12-open.test'))).toEqual([]);
  });

  it('on an --sso-only domain resend_confirmation mails nothing and the code step gives no session', async () => {
    await accountsAdmin(db()).setDomain('f12-corp.test', { ssoOnly: true });
    await ssoCreated('done@f12-corp.test', true);
    await ssoCreated('half@f12-corp.test', false);
    const before = await mailsSoFar(w);
    for (const email of ['done@f12-corp.test', 'half@f12-corp.test', 'unknown@f12-corp.test']) {
      expectError(await resend(email), 400, 'ERR_SSO_LOGIN_ONLY');
    }
    expectError(await confirm('half@f12-corp.test', '123456'), 403, 'ERR_SSO_LOGIN_ONLY');
    await outboxDrained(w);
    expect(w.smtp.messages.slice(before).filter((m) => m.to.some((t) => t.endsWith('@f12-corp.test')))).toEqual([]);
  });
});

describe('F15 e-mail recovery on a two-step account', () => {
  it('the recovery token alone changes nothing: the second factor is asked first', async () => {
    const owner = await registered(w, 'rec@f15.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const recovered = { id: owner.id, token: await recoverByMail(w, 'rec@f15.test') };
    const change = (extra: Record<string, string>) => changePassword(w, recovered, 'Taken-Over-77', extra);
    expectError(await change({}), 400, 'ERR_SECOND_FACTOR_REQUIRED');
    expectError(await change({ code: '000000' }), 400, 'ERR_SECOND_STEP_INVALID');
    expectError(await change({ code: 'aaaaa-bbbbb' }), 400, 'ERR_SECOND_STEP_INVALID');
    // Nothing changed: the owner's session lives, the old password still works, the new one does not.
    expect((await me(owner.token)).statusCode).toBe(200);
    expect((await signIn(w, 'rec@f15.test')).json().second_step).toBe('totp');
    expectError(await signIn(w, 'rec@f15.test', 'Taken-Over-77'), 401, 'ERR_INVALID_CREDENTIALS');
    // With the code: the password changes (and a notice says so), every session ends, the answer is a
    // full AAL2 session, and the next sign-in with the new password still asks for the code.
    const before = await mailsSoFar(w);
    const done = await change({ code: await currentCode(secret) });
    expect(done.statusCode, done.body).toBe(200);
    expect(typeof done.json().token).toBe('string');
    expect((await mailTo(w.smtp, 'rec@f15.test', before)).subject).toBe('Your Suite password was changed');
    expect((await me(owner.token)).statusCode).toBe(401);
    expect(await sessionRow(done.json().token)).toMatchObject({ amr: 'code,totp', aal: 2 });
    expect((await signIn(w, 'rec@f15.test', 'Taken-Over-77')).json().second_step).toBe('totp');
  });
});

const revert = (token: string) => call(w.app, { method: 'POST', url: '/v2/user/factor-revert', body: { token } });
const reauth = (token: string, body: Record<string, unknown>) =>
  call(w.app, { method: 'POST', url: '/v2/user/reauth', token, body });
const passwordHashOf = async (email: string) =>
  (await db().selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow())
    .password_hash;

describe('Review 3 a pending second step outlives a password change and sign-out of all devices', () => {
  it('the relayed code is refused and not spent: the owner signs in with it after the new password', async () => {
    // The attacker has the old password and a pending token; the owner, warned, changes the password.
    const owner = await registered(w, 'relay@rv3.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const pending = await pendingOf(w, 'relay@rv3.test');
    const change = await changePassword(w, owner, 'Changed-Pass-314');
    expect(change.statusCode, change.body).toBe(200);
    // A code the attacker guesses or relays: the old password's pending step must sign in no one.
    const code = await currentCode(secret);
    const relayed = await secondStep(w, 'relay@rv3.test', pending, code);
    expectError(relayed, 401, 'ERR_SECOND_STEP_EXPIRED');
    expect(relayed.json().token).toBeUndefined();
    // The refusal came before the code was looked at: the owner's own sign-in still takes it.
    const own = await secondStep(w, 'relay@rv3.test', await pendingOf(w, 'relay@rv3.test', 'Changed-Pass-314'), code);
    expect(own.statusCode, own.body).toBe(200);
  });

  it('ending one other session (not all) leaves a pending step alone', async () => {
    const owner = await registered(w, 'one@rv3.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const other = await anotherSessionTotp('one@rv3.test', secret);
    const pending = await pendingOf(w, 'one@rv3.test');
    const list = (await call(w.app, { method: 'GET', url: '/v2/user/sessions', token: owner.token })).json().data as {
      _id: string;
      current: boolean;
    }[];
    const target = list.find((s) => !s.current)!;
    const ended = await call(w.app, { method: 'DELETE', url: `/v2/user/sessions/${target._id}`, token: owner.token });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    const done = await secondStep(w, 'one@rv3.test', pending, await currentCode(secret, Date.now() + 30_000));
    expect(done.statusCode, done.body).toBe(200);
  });
});

/**
 * A session of a two-step account: the password, then the current code (turnOnTotp used the step
 * before; a later code in the same test takes the next step, as codes only move forward).
 */
async function anotherSessionTotp(email: string, secret: string): Promise<string> {
  const res = await secondStep(w, email, await pendingOf(w, email), await currentCode(secret));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

describe('Review 4 "this wasn\'t me" undoes only its own factor', () => {
  it("one link undoes the passkey and the app the thief added, and spends the thief's other links", async () => {
    const owner = await registered(w, 'all@rv4.test');
    const thief = await anotherSession(w, 'all@rv4.test');
    let before = await mailsSoFar(w);
    const { res, key } = await addPasskey(w, thief);
    expect(res.statusCode, res.body).toBe(200);
    const first = await notMeToken(w, 'all@rv4.test', before);
    before = await mailsSoFar(w);
    await turnOnTotp(w, thief);
    const second = await notMeToken(w, 'all@rv4.test', before);
    expect((await revert(first)).json()).toEqual({ ok: true, password_cleared: false });
    expectError(await revert(second), 400, 'ERR_REVERT_INVALID');
    expectError(await passkeyLogin(w, key), 401, 'ERR_PASSKEY_UNKNOWN');
    expect((await me(owner.token)).statusCode).toBe(401);
    const back = await signIn(w, 'all@rv4.test');
    expect(back.statusCode, back.body).toBe(200);
    expect(await security(back.json().token)).toMatchObject({ passkeys: [], totp: false });
  });

  it("another account's links are left alone", async () => {
    const a = await registered(w, 'a@rv4.test');
    const b = await registered(w, 'b@rv4-other.test');
    let before = await mailsSoFar(w);
    expect((await addPasskey(w, a.token)).res.statusCode).toBe(200);
    const linkA = await notMeToken(w, 'a@rv4.test', before);
    before = await mailsSoFar(w);
    const { res } = await addPasskey(w, b.token);
    expect(res.statusCode).toBe(200);
    const linkB = await notMeToken(w, 'b@rv4-other.test', before);
    expect((await revert(linkA)).statusCode).toBe(200);
    expect((await me(b.token)).statusCode).toBe(200);
    expect((await security(b.token)).passkeys).toHaveLength(1);
    expect((await revert(linkB)).statusCode).toBe(200);
  });
});

describe('Review 5 a password-only proof on a two-step account lets the session add a passkey', () => {
  it('a stale AAL2 session re-proved with the password alone still cannot add a passkey; the app code can', async () => {
    const owner = await registered(w, 'aal@rv5.test');
    const { secret } = await turnOnTotp(w, owner.token);
    const session = await anotherSessionTotp('aal@rv5.test', secret);
    expect(Number((await sessionRow(session)).aal)).toBe(2);
    await staled(w, session);
    expect((await reauth(session, { method: 'password', password: PASSWORD })).statusCode).toBe(200);
    expectError(await passkeyOptions(w, session), 403, 'ERR_PROOF_REQUIRED');
    // The Security panel offers the app (or a passkey), not the password, for this account.
    expect((await security(session)).reauth).toEqual(['totp']);
    const proved = await reauth(session, { method: 'totp', code: await currentCode(secret, Date.now() + 30_000) });
    expect(proved.statusCode, proved.body).toBe(200);
    expect((await passkeyOptions(w, session)).statusCode).toBe(200);
  });

  it('an account without a second factor is re-proved by its password alone', async () => {
    const owner = await registered(w, 'plain@rv5.test');
    const session = await staled(w, owner.token);
    expect((await security(session)).reauth).toEqual(['password']);
    expect((await reauth(session, { method: 'password', password: PASSWORD })).statusCode).toBe(200);
    expect((await passkeyOptions(w, session)).statusCode).toBe(200);
  });
});

describe("Review 6 reverting a thief's password change leaves his password working", () => {
  it('the link clears the password, the mail and the answer say so; the mailbox sets a new one', async () => {
    // The thief has a copied session and the (phished) password of an account without two-step
    // verification, and changes the password; the owner answers the notice.
    const owner = await registered(w, 'pw@rv6.test');
    const thief = await anotherSession(w, 'pw@rv6.test');
    const before = await mailsSoFar(w);
    const change = await changePassword(w, { id: owner.id, token: thief }, 'Thiefs-Pass-808');
    expect(change.statusCode, change.body).toBe(200);
    const mail = await mailTo(w.smtp, 'pw@rv6.test', before);
    expect(mail.text).toContain('the link below also removes the new password');
    const link = /\/security\/not-me#([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect((await revert(link)).json()).toEqual({ ok: true, password_cleared: true });
    expect((await me(thief)).statusCode).toBe(401);
    expect(await passwordHashOf('pw@rv6.test')).toBeNull();
    for (const password of ['Thiefs-Pass-808', PASSWORD]) {
      expect((await signIn(w, 'pw@rv6.test', password)).statusCode).not.toBe(200);
    }
    // Recovery by mail is the way back in.
    const token = await recoverByMail(w, 'pw@rv6.test');
    const set = await changePassword(w, { id: owner.id, token }, 'Owners-Pass-909', {});
    expect(set.statusCode, set.body).toBe(200);
    expect((await signIn(w, 'pw@rv6.test', 'Owners-Pass-909')).statusCode).toBe(200);
  });
});

describe('Review 7 passkey removal needs no fresh proof and sends no notice', () => {
  it('a stale session is asked for a proof; after it the key goes, other sessions end, a notice is mailed', async () => {
    const owner = await registered(w, 'rm@rv7.test');
    const { res, key } = await addPasskey(w, owner.token);
    const id = res.json()._id as string;
    const other = await anotherSession(w, 'rm@rv7.test');
    await staled(w, owner.token);
    expectError(
      await call(w.app, { method: 'DELETE', url: `/v2/user/passkeys/${id}`, token: owner.token }),
      403,
      'ERR_PROOF_REQUIRED',
    );
    expect((await security(owner.token)).passkeys).toHaveLength(1);
    expect((await reauth(owner.token, { method: 'password', password: PASSWORD })).statusCode).toBe(200);
    const before = await mailsSoFar(w);
    const removed = await call(w.app, { method: 'DELETE', url: `/v2/user/passkeys/${id}`, token: owner.token });
    expect(removed.statusCode, removed.body).toBe(200);
    expectError(await passkeyLogin(w, key), 401, 'ERR_PASSKEY_UNKNOWN');
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(owner.token)).statusCode).toBe(200);
    const mail = await mailTo(w.smtp, 'rm@rv7.test', before);
    expect(mail.subject).toContain('A passkey was removed');
    // The owner's "this wasn't me" ends every session, the remover's included.
    const link = /\/security\/not-me#([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect((await revert(link)).statusCode).toBe(200);
    expect((await me(owner.token)).statusCode).toBe(401);
  });

  it('on a two-step account a password-only proof removes no passkey', async () => {
    const owner = await registered(w, 'rm2@rv7.test');
    const { res } = await addPasskey(w, owner.token);
    const id = res.json()._id as string;
    const { secret } = await turnOnTotp(w, owner.token);
    const session = await staled(w, await anotherSessionTotp('rm2@rv7.test', secret));
    expect((await reauth(session, { method: 'password', password: PASSWORD })).statusCode).toBe(200);
    expectError(
      await call(w.app, { method: 'DELETE', url: `/v2/user/passkeys/${id}`, token: session }),
      403,
      'ERR_PROOF_REQUIRED',
    );
    expect((await security(session)).passkeys).toHaveLength(1);
  });

  it("the notice is in the account's language", async () => {
    const owner = await registered(w, 'rm3@rv7.test');
    await db().updateTable('users').set({ language: 'it' }).where('id', '=', owner.id).execute();
    const { res } = await addPasskey(w, owner.token);
    const before = await mailsSoFar(w);
    const removed = await call(w.app, {
      method: 'DELETE',
      url: `/v2/user/passkeys/${res.json()._id as string}`,
      token: owner.token,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await mailTo(w.smtp, 'rm3@rv7.test', before)).subject).toContain('Una passkey è stata rimossa');
  });
});

describe('Review 8 a recovery token issued before a domain became SSO-only still works', () => {
  it('the token sets no password once the domain is SSO-only, and the stored password is unchanged', async () => {
    const owner = await registered(w, 'late@rv8-corp.test');
    const token = await recoverByMail(w, 'late@rv8-corp.test');
    const stored = await passwordHashOf('late@rv8-corp.test');
    await accountsAdmin(db()).setDomain('rv8-corp.test', { ssoOnly: true });
    // The administrators close every door but their provider's: the mailbox's token, minutes old, gets no session.
    const res = await changePassword(w, { id: owner.id, token }, 'Brand-New-Pass-77', {});
    expectError(res, 403, 'ERR_SSO_LOGIN_ONLY');
    expect(res.json().token).toBeUndefined();
    expect(await passwordHashOf('late@rv8-corp.test')).toBe(stored);
  });
});
