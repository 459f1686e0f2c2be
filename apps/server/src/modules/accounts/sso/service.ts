import { createHash, randomBytes } from 'node:crypto';
import type { CacheProvider } from '@node-saml/node-saml';
import {
  ADMIN_WEB_PATHS,
  API,
  API_PREFIX,
  SSO_TEST_CHECKS,
  HANDOFF_TTL_SECONDS,
  SSO_CLOCK_SKEW_SECONDS,
  SSO_REQUEST_TTL_SECONDS,
  emailDomain,
  isEmailShape,
  cleanDisplayName,
  normalizeEmail,
  type SsoTestResult,
  type HandoffResponse,
  type Language,
  type SsoDiscoverResponse,
} from '@suite/contract';
import { AppError } from '../../../errors.js';
import { openSignedValue, sameSecret, signValue } from '../../../keys.js';
import type { AccountsDeps } from '../deps.js';
import { domainsRepository } from '../domains/repository.js';
import { sessionsRepository } from '../../../plugins/sessions-repository.js';
import { usersRepository, type UserRow } from '../identity/repository.js';
import { finishWithSession } from '../login/finish.js';
import { oidcStrategy, type OidcPending } from '../strategies/oidc/oidc.js';
import { inResponseToOf, refuseUnusualShape, samlStrategy, type SamlServiceProvider } from '../strategies/saml/saml.js';
import {
  SsoFailure,
  describeError,
  withSsoContext,
  type SsoFailureContext,
  type SsoIdentity,
} from '../strategies/sso-failure.js';
import type { Database } from '../../../db/schema.js';
import type { Kysely } from 'kysely';
import { connectionsRepository, type Connection } from './connections.js';
import { ssoStore, type ReauthOf, type SsoRequest } from './store.js';
import { flowState } from '../state/repository.js';

/** What the flow tells the log (the routes give it the server's logger). */
export interface SsoEvents {
  /** One line per successful sign-in with a provider. */
  signedIn(info: {
    domain: string;
    protocol: 'oidc' | 'saml';
    connection: string;
    account: 'new' | 'existing';
    accountId: string;
  }): void;
  /** Something the operator should change, logged at most once a day per connection. */
  warn(info: { domain: string; connection: string }, message: string): void;
}

const DAY_MS = 24 * 3600_000;
/** A connection people may sign in through: not one set up in the console still waiting for its test. */
const live = <C extends Connection>(connection: C | undefined): C | undefined =>
  connection && !connection.settings.awaitingTest ? connection : undefined;
/** The state key of an administrator's last Test sign-in of a domain. */
const testKey = (userId: string, domain: string) => `sso-test:${userId}:${domain}`;
import { providerSessions, type ProviderSession } from './sessions.js';
import { spKeys } from '../strategies/saml/sp-keys.js';
import { unsolicitedIssuerOf } from '../strategies/saml/idp-initiated.js';

/** Where a sign-in started with a provider goes next (the routes turn it into a 302). */
interface OidcReturn {
  connectionId: string | undefined;
  query: Record<string, string>;
  binding: string | undefined;
  language: Language;
  device: string | null;
}
interface SamlReturn {
  samlResponse: string;
  language: Language;
  device: string | null;
}

export type SsoStart = { kind: 'redirect'; url: string; binding: string } | { kind: 'not-configured' };

const REQUEST_TTL_MS = SSO_REQUEST_TTL_SECONDS * 1000;
/** Accepted assertion IDs are remembered well past any assertion's validity window. */
const REPLAY_TTL_MS = 24 * 3600_000;

/** The signed-value purpose of the browser-binding cookie: no other signed value passes for it. */
const BINDING_PURPOSE = 'sso-binding';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Is the provider's address already in the one form we store? Lower-casing ASCII letters is a
 * canonical step; a non-ASCII character that lower-cases to another one (KELVIN SIGN U+212A to `k`)
 * would make another person's address out of it, so such an address is refused, never matched.
 */
function isCanonicalAddress(raw: string): boolean {
  const trimmed = raw.trim();
  return (
    trimmed.toLowerCase() === trimmed.replace(/[A-Z]/g, (c) => c.toLowerCase()) && trimmed === trimmed.normalize('NFC')
  );
}

/**
 * The single-sign-on flow: home-realm discovery from the address's domain, the start of a
 * sign-in with the domain's provider, the provider's return (OIDC callback, SAML ACS), the account, and
 * the single-use hand-off of the session to the web app's /auth page. The strategies
 * (strategies/oidc, strategies/saml) speak the protocols; this decides who may come in.
 */
export function ssoFlow(deps: AccountsDeps, events?: SsoEvents) {
  const { config } = deps;
  const ring = config.keys.sso;
  const connections = () => connectionsRepository(deps.db, ring);
  const store = () => ssoStore(deps.db);
  const sp: SamlServiceProvider = {
    entityId: `${config.publicUrl}${API_PREFIX}${API.ssoSamlMetadata}`,
    acsUrl: `${config.publicUrl}${API_PREFIX}${API.ssoSamlAcs}`,
    sloUrl: `${config.publicUrl}${API_PREFIX}${API.ssoSamlSlo}`,
  };
  const keys = () => spKeys(deps.db, ring, sp.entityId);
  /** The provider's side of a session, for single logout (the ID token sealed at once). */
  const providerSession = (domain: string, protocol: 'oidc' | 'saml', identity: SsoIdentity): ProviderSession => ({
    domain,
    protocol,
    subject: identity.subject,
    sessionIndex: identity.sessionIndex ?? null,
    nameIdFormat: identity.nameIdFormat ?? null,
    idToken: identity.idToken ? providerSessions(deps.db, ring).sealIdToken(identity.idToken) : null,
  });
  const sharedRedirectUri = `${config.publicUrl}${API_PREFIX}${API.ssoOidcCallback}`;
  /** The connection's own redirect URI; one made before them keeps the shared one until moved. */
  const redirectUriOf = (connection: Connection) =>
    connection.sharedCallback ? sharedRedirectUri : `${sharedRedirectUri}/${connection.id}`;

  /**
   * node-saml's request-ID cache, kept in the database so that any instance can take the answer; the
   * request also keeps the browser binding and, for a fresh proof, the session that asked.
   */
  const samlRequests = (
    domain: string,
    extra: Omit<SsoRequest, 'domain' | 'protocol' | 'data'> = {},
  ): CacheProvider => ({
    async saveAsync(key, value) {
      await store().saveRequest({ id: key, domain, protocol: 'saml', data: value, ttlMs: REQUEST_TTL_MS, ...extra });
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      const row = await store().peekRequest(key);
      return row && row.domain === domain && row.protocol === 'saml' ? row.data : null;
    },
    async removeAsync(key) {
      if (!key) return null;
      return (await store().takeRequest(key))?.data ?? null;
    },
  });

  /** The browser-binding cookie's value: random, signed (keys.ts signValue); the request row keeps its SHA-256. */
  function newBinding(): { cookie: string; hash: string } {
    const value = randomBytes(24).toString('base64url');
    return { cookie: signValue(ring, BINDING_PURPOSE, value), hash: sha256(value) };
  }
  function bindingMatches(cookie: string | undefined, hash: string | null | undefined): boolean {
    if (!hash) return false;
    const value = openSignedValue(ring, BINDING_PURPOSE, cookie);
    return value !== null && sameSecret(sha256(value), hash);
  }

  /**
   * The address the provider vouched for, refused unless it is canonical and of one of the connection's
   * domains. No address at all is its own cause (the provider does not release the attribute, or under
   * another name than the mapping's): `isEmailShape('')` is true by design, so it is asked first.
   */
  function addressOf(domains: string[], identity: SsoIdentity): string {
    if (identity.email.trim() === '')
      throw new SsoFailure(
        'no-email',
        `the provider sent no e-mail address (map its attribute or claim: sso set --email-attribute); ${identity.received}`,
      );
    if (!isCanonicalAddress(identity.email))
      throw new SsoFailure('invalid', 'the provider sent an address that is not in canonical form');
    const email = normalizeEmail(identity.email);
    if (!isEmailShape(email) || !email.includes('@'))
      throw new SsoFailure('invalid', `the provider sent no usable e-mail address; ${identity.received}`);
    if (!domains.includes(emailDomain(email)))
      throw new SsoFailure(
        'foreign',
        `address of ${emailDomain(email)}, not of the connection's ${domains.join(', ')}; ${identity.received}`,
      );
    return email;
  }

  /** Logs `message` once a day per connection and kind, over all instances (the mark is in the database). */
  async function warnDaily(connection: Connection, kind: string, message: string): Promise<void> {
    if (!events) return;
    if (await flowState(deps.db).firstUse('sso-notice', `${kind} ${connection.id}`, DAY_MS))
      events.warn({ domain: connection.domain, connection: connection.id }, message);
  }

  /**
   * The same person, not only the same address: the provider's subject is stored at the account's first
   * sign-in through that provider, and a later one with another subject is refused (the provider's
   * admin gave the address to someone else). Identities that cannot be pinned (a SAML transient or
   * e-mail NameID) are matched by address alone.
   */
  async function pinSubject(db: Kysely<Database>, userId: string, identity: SsoIdentity): Promise<void> {
    if (!identity.pinnable) return;
    // The first sign-in stores the subject; of two parallel first ones, one row wins and both compare.
    await db
      .insertInto('sso_identities')
      .values({ user_id: userId, issuer: identity.issuer, subject: identity.subject, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['user_id', 'issuer']).doNothing())
      .execute();
    const pinned = await db
      .selectFrom('sso_identities')
      .select('subject')
      .where('user_id', '=', userId)
      .where('issuer', '=', identity.issuer)
      .executeTakeFirstOrThrow();
    if (!sameSecret(pinned.subject, identity.subject))
      throw new SsoFailure('other-person', 'the address comes with another subject');
  }

  /** The account the provider vouched for: created on its first sign-in, never with a password. */
  async function accountFor(
    connection: Connection,
    identity: SsoIdentity,
    language: Language,
  ): Promise<{ user: UserRow; created: boolean }> {
    const email = addressOf(connection.domains, identity);
    // The account's domain is its address's (a connection may serve several).
    const domain = emailDomain(email);
    if (!(await domainsRepository(deps.db).rules(domain)).active) throw new SsoFailure('inactive', 'domain inactive');
    return deps.db.transaction().execute(async (trx) => {
      const users = usersRepository(trx);
      let user = await users.byEmail(email);
      const created = !user;
      if (!user || !user.confirmed_at) {
        // A new confirmed account takes a seat of the domain's free plan: the same rule as sign-up, with
        // the domain's row held so that parallel first sign-ins cannot both take the last seat.
        const domains = domainsRepository(trx);
        await domains.lock(domain);
        const { freePlanLimit } = await domains.rules(domain);
        if (freePlanLimit !== null && (await domains.confirmedUsers(domain)) >= freePlanLimit)
          throw new SsoFailure('no-seats', `free plan of ${domain} full`);
      }
      if (!user) {
        const id = await users.create({
          email,
          domain,
          language,
          profileType: 'PROFESSIONAL',
          confirmed: true,
          invitedBy: null,
        });
        // Names from the provider's claims or attributes, under the one name rule (cleaned, not refused).
        const first = cleanDisplayName(identity.firstName) || cleanDisplayName(email.split('@')[0] ?? '');
        await users.setNames(id, first, cleanDisplayName(identity.lastName));
        user = (await users.byId(id))!;
      } else if (!user.confirmed_at) {
        // The provider vouches for the mailbox: the e-mailed code is not needed any more.
        await users.markConfirmed(user.id);
        user = (await users.byId(user.id))!;
      }
      if (!user.active) throw new SsoFailure('inactive', 'account deactivated');
      await pinSubject(trx, user.id, identity);
      return { user, created };
    });
  }

  /** The account of a sign-in (not a fresh proof), logged in one line. */
  async function signIn(connection: Connection, identity: SsoIdentity, language: Language): Promise<UserRow> {
    const { user, created } = await accountFor(connection, identity, language);
    events?.signedIn({
      domain: user.domain,
      protocol: connection.protocol,
      connection: connection.id,
      account: created ? 'new' : 'existing',
      accountId: user.id,
    });
    return user;
  }

  async function handOff(
    user: UserRow,
    device: string | null,
    binding: string | null,
    reauth?: ReauthOf,
    provider?: ProviderSession,
  ): Promise<string> {
    const token = await store().createHandoff({
      userId: user.id,
      email: user.email,
      method: 'sso',
      device,
      binding,
      ttlMs: HANDOFF_TTL_SECONDS * 1000,
      ...(reauth ? { reauth } : {}),
      ...(provider ? { provider } : {}),
    });
    return `${config.publicUrl}/auth?handoff=${encodeURIComponent(token)}`;
  }

  /**
   * A fresh proof's answer: the provider authenticated the same person again, just now. Both protocols
   * must say when (OIDC auth_time; SAML's AuthnStatement is mandatory in the Web SSO profile, and
   * ForceAuthn is only a request): an answer without it proves nothing.
   */
  async function checkProof(
    connection: Connection,
    reauth: ReauthOf,
    identity: SsoIdentity,
    request: SsoRequest,
  ): Promise<UserRow> {
    const user = await usersRepository(deps.db).byId(reauth.userId);
    if (!user?.active) throw new SsoFailure('inactive', 'account deactivated');
    const email = addressOf(connection.domains, identity);
    if (email !== user.email) throw new SsoFailure('other-person', 'a fresh proof by another address');
    await pinSubject(deps.db, user.id, identity);
    const startedS = Math.floor((request.startedAt ?? 0) / 1000);
    if (identity.authTime === undefined)
      throw new SsoFailure('invalid', 'the provider did not say when the person authenticated');
    if (identity.authTime < startedS - SSO_CLOCK_SKEW_SECONDS)
      throw new SsoFailure('invalid', 'the provider did not authenticate the person again');
    return user;
  }

  /** The session that asked is marked proved (no new session). */
  const markProved = (reauth: ReauthOf) =>
    sessionsRepository(deps.db).markProved(reauth.sessionId, Date.now(), ['sso'], 1);

  /**
   * An IdP-initiated response (the provider's app tile): it answers no request of ours, so nothing binds
   * it to a browser. Taken only where the connection allows it, signed, fresh and once; the hand-off
   * carries no binding, so the /auth page asks "Continue as …?" before any session exists.
   */
  async function unsolicited(input: SamlReturn, context: SsoFailureContext) {
    // What answers no request and is not even well-formed is an unsolicited answer of nobody, as before.
    try {
      refuseUnusualShape(input.samlResponse);
    } catch (error) {
      throw new SsoFailure(
        'expired',
        `unsolicited response: ${error instanceof SsoFailure ? error.detail : 'unreadable'}`,
      );
    }
    const issuer = unsolicitedIssuerOf(input.samlResponse);
    const connection = issuer ? await connections().bySamlEntityId(issuer) : undefined;
    if (connection?.protocol !== 'saml') throw new SsoFailure('expired', 'unsolicited response of no connection');
    context.domain = connection.domain;
    if (!live(connection))
      throw new SsoFailure('not-configured', `the connection of ${connection.domain} awaits a passed Test sign-in`);
    if (!connection.settings.allowIdpInitiated)
      throw new SsoFailure('idp-initiated', `unsolicited response from ${connection.domain}'s IdP (not allowed)`);
    const identity = await samlStrategy.complete(
      sp,
      connection.settings,
      samlRequests(connection.domain),
      input.samlResponse,
      {
        keys: (await keys().decrypting()).map((k) => k.privateKey),
        unsolicited: true,
      },
    );
    if (!(await store().firstUse(`${connection.settings.entityId} ${identity.assertionId}`, REPLAY_TTL_MS)))
      throw new SsoFailure('expired', 'assertion replayed');
    return handOff(
      await signIn(connection, identity, input.language),
      input.device,
      null,
      undefined,
      providerSession(connection.domain, 'saml', identity),
    );
  }

  /** `context` learns whose sign-in it is as the checks go. */
  async function oidcReturn(input: OidcReturn, context: SsoFailureContext): Promise<string> {
    const state = input.query.state ?? '';
    const request = state ? await store().takeRequest(state) : undefined;
    if (!request || request.protocol !== 'oidc') {
      throw new SsoFailure('expired', state ? 'unknown, used or expired state' : 'no state');
    }
    context.domain = request.domain;
    const pending = JSON.parse(request.data) as OidcPending;
    if (!bindingMatches(input.binding, request.binding)) {
      throw new SsoFailure('invalid', 'state not bound to this browser');
    }
    const connection = await connections().get(request.domain);
    if (connection?.protocol !== 'oidc' || connection.id !== request.connectionId)
      throw new SsoFailure('not-configured', `no OIDC connection for ${request.domain}`);
    if (!request.test && !live(connection))
      throw new SsoFailure('not-configured', `the connection of ${request.domain} awaits a passed Test sign-in`);
    // The answer must come back to the address this connection's request named: a state of one
    // connection on another's address (or on the shared one after a move) is a mix-up.
    const redirectUri = redirectUriOf(connection);
    const arrivedAt =
      input.connectionId === undefined ? sharedRedirectUri : `${sharedRedirectUri}/${input.connectionId}`;
    if (arrivedAt !== redirectUri || pending.redirectUri !== redirectUri)
      throw new SsoFailure('invalid', 'state of another connection');
    // The address the provider sent the browser to, rebuilt from PUBLIC_URL (never the Host header).
    const callbackUrl = new URL(redirectUri);
    for (const [key, value] of Object.entries(input.query)) callbackUrl.searchParams.set(key, value);
    if (request.test)
      return testReturn(connection, request.test, () =>
        oidcStrategy.complete(connection, { callbackUrl, state, pending }),
      );
    const identity = await oidcStrategy.complete(connection, { callbackUrl, state, pending });
    context.email = identity.email;
    if (request.reauth) {
      // The callback checked this browser's binding cookie above: the browser that asked is here.
      await checkProof(connection, request.reauth, identity, request);
      await markProved(request.reauth);
      return `${config.publicUrl}/app`;
    }
    return handOff(
      await signIn(connection, identity, input.language),
      input.device,
      request.binding ?? null,
      undefined,
      providerSession(request.domain, 'oidc', identity),
    );
  }

  async function samlReturn(input: SamlReturn, context: SsoFailureContext): Promise<string> {
    const requestId = inResponseToOf(input.samlResponse);
    if (!requestId) return unsolicited(input, context);
    const request = await store().peekRequest(requestId);
    if (!request || request.protocol !== 'saml') {
      throw new SsoFailure('expired', 'unknown, used or expired request ID');
    }
    context.domain = request.domain;
    const connection: Connection | undefined = await connections().get(request.domain);
    if (connection?.protocol !== 'saml' || (request.connectionId && connection.id !== request.connectionId))
      throw new SsoFailure('not-configured', `no SAML connection for ${request.domain}`);
    if (!request.test && !live(connection))
      throw new SsoFailure('not-configured', `the connection of ${request.domain} awaits a passed Test sign-in`);
    const keysNow = async () => (await keys().decrypting()).map((k) => k.privateKey);
    if (request.test)
      return testReturn(connection, request.test, async () => {
        refuseUnusualShape(input.samlResponse);
        return samlStrategy.complete(sp, connection.settings, samlRequests(request.domain), input.samlResponse, {
          keys: await keysNow(),
        });
      });
    // Before any XML parser: a shape no IdP sends would cost the validator the square of its size.
    refuseUnusualShape(input.samlResponse);
    const identity = await samlStrategy.complete(
      sp,
      connection.settings,
      samlRequests(request.domain),
      input.samlResponse,
      { keys: (await keys().decrypting()).map((k) => k.privateKey) },
    );
    context.email = identity.email;
    if (!(await store().firstUse(`${connection.settings.entityId} ${identity.assertionId}`, REPLAY_TTL_MS))) {
      throw new SsoFailure('expired', 'assertion replayed');
    }
    if (identity.sha1)
      await warnDaily(
        connection,
        'sha1',
        `sso: the IdP of ${connection.domain} signs with SHA-1 (RSA-SHA1 or a SHA-1 digest), which is weak: configure RSA-SHA256 at the IdP; new connections refuse SHA-1`,
      );
    if (request.reauth) {
      // The IdP's POST brings no binding cookie, so it cannot tell whose browser answered: a thief's
      // request, answered by the victim at her IdP, would prove the thief's session. The proof is
      // marked only by the /auth page's same-origin exchange, with the binding cookie of the browser
      // that asked.
      const user = await checkProof(connection, request.reauth, identity, request);
      return handOff(user, input.device, request.binding ?? null, request.reauth);
    }
    // The IdP posts cross-site, so the binding cookie may not come with it: the hand-off carries the
    // binding on to the /auth page's same-origin exchange, which checks it.
    return handOff(
      await signIn(connection, identity, input.language),
      input.device,
      request.binding ?? null,
      undefined,
      providerSession(request.domain, 'saml', identity),
    );
  }

  /**
   * A Test sign-in's return: the provider's answer goes through the same checks as a sign-in (its
   * validation, the address, the domain, the account), each verdict recorded for the administrator who
   * started it, and nobody is signed in or created. The popup lands back on the console.
   */
  async function testReturn(
    connection: Connection,
    test: { userId: string },
    complete: () => Promise<SsoIdentity>,
  ): Promise<string> {
    const checks: SsoTestResult['checks'] = [];
    const failed = (check: SsoTestResult['checks'][number]['check'], error: unknown) =>
      checks.push({
        check,
        ok: false,
        reason: error instanceof SsoFailure ? error.reason : 'unavailable',
        detail: error instanceof SsoFailure ? error.detail : describeError(error),
      });
    let identity: SsoIdentity | undefined;
    try {
      identity = await complete();
      checks.push({ check: 'answer', ok: true, reason: null, detail: identity.issuer });
    } catch (error) {
      failed('answer', error);
    }
    let email: string | undefined;
    if (identity) {
      try {
        email = addressOf(connection.domains, identity);
        checks.push({ check: 'address', ok: true, reason: null, detail: email });
      } catch (error) {
        failed('address', error);
      }
    }
    if (email) {
      const domain = emailDomain(email);
      const rules = await domainsRepository(deps.db).rules(domain);
      checks.push(
        rules.active
          ? { check: 'domain_active', ok: true, reason: null, detail: domain }
          : { check: 'domain_active', ok: false, reason: 'inactive', detail: `${domain} is inactive` },
      );
      const user = await usersRepository(deps.db).byEmail(email);
      const full =
        (!user || !user.confirmed_at) &&
        rules.freePlanLimit !== null &&
        (await domainsRepository(deps.db).confirmedUsers(domain)) >= rules.freePlanLimit;
      checks.push(
        user && !user.active
          ? { check: 'account', ok: false, reason: 'inactive', detail: 'account deactivated' }
          : full
            ? { check: 'account', ok: false, reason: 'no-seats', detail: `free plan of ${domain} full` }
            : { check: 'account', ok: true, reason: null, detail: user ? 'existing' : 'new' },
      );
    }
    const result: SsoTestResult = {
      at: new Date().toISOString(),
      protocol: connection.protocol,
      passed: checks.length === SSO_TEST_CHECKS.length && checks.every((c) => c.ok),
      email: identity?.email || null,
      received: identity?.received ?? '',
      checks,
    };
    // The first passed test switches a connection set up from the console on.
    if (result.passed && connection.settings.awaitingTest) {
      const { awaitingTest: _off, ...settings } = connection.settings;
      void _off;
      await connections().updateSettings(connection.domain, settings);
    }
    const state = flowState(deps.db);
    const key = testKey(test.userId, connection.domain);
    await state.take('sso-test', key);
    await state.put('sso-test', key, { subject: test.userId, data: JSON.stringify(result), ttlMs: DAY_MS });
    return `${config.publicUrl}${ADMIN_WEB_PATHS.ssoTestDone}`;
  }

  async function begin(
    connection: Connection,
    email: string,
    reauth?: ReauthOf,
    test?: { userId: string },
  ): Promise<{ kind: 'redirect'; url: string; binding: string }> {
    const binding = newBinding();
    const extra = {
      connectionId: connection.id,
      binding: binding.hash,
      startedAt: Date.now(),
      ...(reauth ? { reauth } : {}),
      ...(test ? { test } : {}),
    };
    if (connection.protocol === 'saml') {
      const url = await samlStrategy.begin(sp, connection.settings, samlRequests(connection.domain, extra), !!reauth);
      return { kind: 'redirect', url, binding: binding.cookie };
    }
    const begun = await oidcStrategy.begin(connection, {
      redirectUri: redirectUriOf(connection),
      loginHint: email,
      forceLogin: !!reauth,
    });
    await store().saveRequest({
      id: begun.state,
      domain: connection.domain,
      protocol: 'oidc',
      data: JSON.stringify(begun.pending),
      ttlMs: REQUEST_TTL_MS,
      ...extra,
    });
    return { kind: 'redirect', url: begun.url, binding: binding.cookie };
  }

  return {
    /** Does the address's domain sign in with single sign-on? Says nothing about the account. */
    async discover(address: string): Promise<SsoDiscoverResponse> {
      const email = normalizeEmail(address);
      if (!isEmailShape(email)) return { sso: 'none' };
      const domain = emailDomain(email);
      const [rules, connection] = await Promise.all([
        domainsRepository(deps.db).rules(domain),
        connections().get(domain),
      ]);
      const connected = live(connection) !== undefined;
      if (rules.ssoOnly) return { sso: 'required' };
      return { sso: connected ? 'available' : 'none' };
    },

    /**
     * A sign-in started from the address typed on our page, or from a domain alone (the link an IT team
     * puts on its portal or app tile: any domain of a connection; no login hint then).
     */
    async start(input: { email?: string | undefined; domain?: string | undefined }): Promise<SsoStart> {
      const email = normalizeEmail(input.email ?? '');
      const domain =
        input.email !== undefined
          ? isEmailShape(email)
            ? emailDomain(email)
            : ''
          : normalizeEmail(input.domain ?? '');
      if (!domain) return { kind: 'not-configured' };
      const connection = live(await connections().get(domain));
      if (!connection) return { kind: 'not-configured' };
      return begin(connection, input.email !== undefined ? email : '').catch((error: unknown) => {
        throw withSsoContext(error, { domain: connection.domain });
      });
    },

    /** A fresh sign-in at the provider of a signed-in account's domain, for the session that asks. */
    async reauth(session: { id: string; email: string; sessionId: string }): Promise<SsoStart> {
      const connection = live(await connections().get(emailDomain(session.email)));
      if (!connection) return { kind: 'not-configured' };
      return begin(connection, session.email, { sessionId: session.sessionId, userId: session.id });
    },

    /**
     * The provider's return to a connection's redirect URI (`connectionId`; undefined: the old shared
     * one); answers the /auth hand-off address (or /app after a fresh proof). A refusal carries whose
     * sign-in it was, as far as the checks got (the domain's audit trail records it).
     */
    async oidcCallback(input: OidcReturn): Promise<string> {
      const context: SsoFailureContext = {};
      try {
        return await oidcReturn(input, context);
      } catch (error) {
        throw withSsoContext(error, context);
      }
    },

    /** The IdP's HTTP-POST to PUBLIC_URL/api/sso/saml/acs; answers the /auth hand-off address. */
    async samlAcs(input: SamlReturn): Promise<string> {
      const context: SsoFailureContext = {};
      try {
        return await samlReturn(input, context);
      } catch (error) {
        throw withSsoContext(error, context);
      }
    },

    /** A console's Test sign-in of the domain's connection, by administrator `userId` (no login hint). */
    async testStart(domain: string, userId: string): Promise<SsoStart> {
      const connection = await connections().get(domain);
      if (!connection) return { kind: 'not-configured' };
      return begin(connection, '', undefined, { userId });
    },

    /** The administrator's last Test sign-in of the domain (kept a day), or null. */
    async testResult(domain: string, userId: string): Promise<SsoTestResult | null> {
      const row = await flowState(deps.db).peek('sso-test', testKey(userId, domain));
      return row?.data ? (JSON.parse(row.data) as SsoTestResult) : null;
    },

    samlMetadata: async () => samlStrategy.metadata(sp, await keys().current()),

    /**
     * The /auth page's exchange: a single-use hand-off token for the session it stands for, when this
     * browser started the sign-in (its binding cookie) or the person confirmed "Continue as …?";
     * otherwise the address to ask about, and the hand-off stays unused.
     */
    async exchange(input: {
      token: string;
      device: string | null;
      /** The client's address, for the audit trail. */
      ip?: string | null;
      binding: string | undefined;
      confirmed: boolean;
    }): Promise<HandoffResponse> {
      const seen = await store().peekHandoff(input.token);
      if (!seen) throw new AppError('ERR_HANDOFF_INVALID');
      if (seen.reauth) {
        // A fresh proof counts only in the browser that asked for it: no "Continue as …?" here, and a
        // refused try spends the hand-off.
        const taken = await store().takeHandoff(input.token);
        if (!taken?.reauth || !bindingMatches(input.binding, taken.binding)) throw new AppError('ERR_HANDOFF_INVALID');
        await markProved(taken.reauth);
        return { proved: true };
      }
      if (!input.confirmed && !bindingMatches(input.binding, seen.binding)) return { confirm_as: seen.email ?? '' };
      const row = await store().takeHandoff(input.token);
      if (!row) throw new AppError('ERR_HANDOFF_INVALID');
      const user = await usersRepository(deps.db).byId(row.user_id);
      if (!user) throw new AppError('ERR_HANDOFF_INVALID');
      const session = await finishWithSession(deps, user, {
        method: 'sso',
        device: input.device ?? row.device,
        ip: input.ip ?? null,
      });
      if (row.provider) await providerSessions(deps.db, ring).record(session.token, user.id, row.provider);
      return session;
    },
  };
}
