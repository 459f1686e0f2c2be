import { createHash, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { CompiledQuery, Kysely } from 'kysely';
import type { JWTPayload } from 'jose';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ErrorBodySchema, sessionMethodOf, type SessionPayload } from '@suite/contract';
import { AppError, unavailable } from '../errors.js';
import type { Database } from '../db/schema.js';
import { loadJose, signWithRing, verifyWithRing, type KeyRing } from '../keys.js';
import {
  sessionsRepository,
  type SessionCheckRow,
  type SessionKind,
  type SessionMethod,
} from './sessions-repository.js';

export type { SessionKind, SessionMethod };

export interface SessionUser {
  id: string;
  email: string;
  profileId: string | null;
  /** Seconds since epoch at which the session was issued. */
  issuedAt: number;
  /** The public id of this session (a row of `sessions`): what "sign out this device" ends. */
  sessionId: string;
  /**
   * The session's scope: 'session' (full), 'welcome' (an account that has not finished registering:
   * the welcome step alone), 'recovery' (the single-purpose token of password recovery, good only for
   * setting the password).
   */
  kind: SessionKind;
  /** When the session was last seen (epoch ms), before this request. */
  lastSeenAt: number;
  /** The User-Agent stored for this session (its device). */
  device: string | null;
  /** How this session was signed in (undefined: a value this version does not name). */
  method: SessionMethod | undefined;
  /** The methods the session was proved with (`amr`), the assurance they reached, and the last proof (epoch ms). */
  amr: readonly string[];
  aal: number;
  provedAt: number | null;
  /** The account's code step and welcome step are done (read with the session: /me needs no other read). */
  confirmed: boolean;
  registered: boolean;
  /**
   * Until when the domain's required two-step verification may still be skipped (epoch ms), read with
   * the session; null when the domain requires none or gives no grace.
   */
  twoStepGraceUntil: number | null;
  /** The bearer token itself (the password change hands back the one in hand). */
  token: string;
}

export interface IssueOptions {
  issuedAt?: number;
  /**
   * 'recovery' tokens live RECOVERY_TOKEN_TTL_S and are accepted only by the password change; 'welcome'
   * sessions only by the welcome step's routes (`config.session: 'welcome'`).
   */
  kind?: SessionKind;
  /** The User-Agent of the request that signs in (its device), shown in the sessions list at once. */
  device?: string | null;
  /** How the person proved who they are (default 'password'); the sessions panel names it. */
  method?: SessionMethod;
  /** What the sign-in proved (`amr` values) and its assurance level (default: [] and 1). */
  amr?: readonly string[];
  aal?: number;
  /**
   * The transaction to write the session row with: the step that earns the session (a consumed code,
   * a registration, a new password) and the session commit together, so a failure between them leaves
   * nothing done and the request can be retried.
   */
  db?: Kysely<Database>;
}

export interface Sessions {
  /**
   * A session JWT whose payload is the spec's `{ user: {_id, email, preferences, profile_id}, exp }`
   * (+ iat, and `sid`, the random session id whose SHA-256 is the `sessions` row's key, and `kind`).
   */
  issue(user: SessionPayload['user'], options?: IssueOptions): Promise<string>;
  verify(token: string): Promise<SessionUser>;
  /**
   * Ends sessions of a user: one (`only`), or all but one (`except`), or all. Returns how many. `db`:
   * the caller's transaction.
   */
  revoke(userId: string, scope?: { only?: string; except?: string }, db?: Kysely<Database>): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
  }
  interface FastifyContextConfig {
    /**
     * The one way a route says it is signed in (`config: { session: 'full' }`): the session is checked
     * before validation and the route's own preHandlers (so a per-user limit knows the user, and a
     * request without a session costs no counter but its per-IP one), and the bearer scheme with its
     * 401/403 joins the route's schema.
     * 'optional': request.user is set when a valid full session comes with the request, null otherwise.
     */
    session?: SessionScope | 'optional';
  }
  interface FastifyRequest {
    /**
     * The signed-in user, readable only on a route that declares `config.session` (elsewhere reading it
     * throws: a route must not find the session another way).
     */
    readonly user: SessionUser | null;
    [SESSION_USER]: SessionUser | null;
  }
}

const ALGORITHM = 'HS256';
/** A recovery token is good for 15 minutes (ASVS 5.0 V6.4: short-lived, single-purpose). */
const RECOVERY_TOKEN_TTL_S = 15 * 60;
/** last_seen_at is written at most this often per session (a write per request would be wasteful). */
const TOUCH_EVERY_MS = 60_000;

/**
 * What a signed-in route accepts: 'full' (the default: a full session), 'welcome' (the welcome step and
 * what its screen needs: a full session or the welcome step's one), 'password' (the password change: a
 * full session or a recovery token).
 */
export type SessionScope = 'full' | 'welcome' | 'password';
const SCOPE_KINDS: Record<SessionScope, readonly SessionKind[]> = {
  full: ['session'],
  welcome: ['session', 'welcome'],
  password: ['session', 'recovery'],
};

/**
 * The domain's security policy (set in the administrators' console) bounds every session of its people,
 * those issued before the policy too: a maximum lifetime from sign-in and an idle timeout (last_seen_at
 * is written at most once a minute; the idle bound is at least 15 minutes).
 */
function pastDomainLimits(row: SessionCheckRow, now: number): boolean {
  const max = row.session_max_ms === null ? null : Number(row.session_max_ms);
  const idle = row.session_idle_ms === null ? null : Number(row.session_idle_ms);
  return (
    (max !== null && now - Number(row.created_at) > max) || (idle !== null && now - Number(row.last_seen_at) > idle)
  );
}
/** Where the session check keeps the user; read through request.user (its getter checks the route). */
const SESSION_USER = Symbol('session user');

/** The OpenAPI security requirement of a signed-in route. */
const bearerSecurity = [{ bearer: [] }];

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function auth(app: FastifyInstance, opts: { keys: KeyRing; ttlSeconds: number }) {
  const db = () => app.db.kysely;
  let sessionCheck: CompiledQuery<SessionCheckRow> | undefined;
  const sessions: Sessions = {
    async issue(user, options = {}) {
      const kind = options.kind ?? 'session';
      const now = Date.now();
      const ttl = kind === 'recovery' ? RECOVERY_TOKEN_TTL_S : opts.ttlSeconds;
      const exp = Math.floor(now / 1000) + ttl;
      const sid = randomBytes(24).toString('base64url');
      await sessionsRepository(options.db ?? db()).insert({
        id: randomBytes(12).toString('hex'),
        sidHash: sha256(sid),
        userId: user._id,
        kind,
        method: options.method ?? (kind === 'recovery' ? 'recovery' : 'password'),
        device: options.device ?? null,
        now,
        expiresAt: exp * 1000,
        amr: options.amr ?? [],
        aal: options.aal ?? 1,
      });
      // issuedAt (seconds) lets a caller that just revoked older sessions issue one that outlives the cut.
      const { UnsecuredJWT } = await loadJose();
      const claims = new UnsecuredJWT({ user, sid, kind }).setIssuedAt(options.issuedAt).setExpirationTime(exp);
      return signWithRing(opts.keys, { alg: ALGORITHM, typ: 'JWT' }, claims);
    },
    async verify(token) {
      let payload: JWTPayload;
      try {
        // exp and iat are required: a token without an end would be valid forever (ASVS 5.0 V9.2.1).
        ({ payload } = await verifyWithRing(token, opts.keys, {
          algorithms: [ALGORITHM],
          requiredClaims: ['exp', 'iat'],
        }));
      } catch {
        throw new AppError('ERR_INVALID_ACCESS_TOKEN');
      }
      const user = payload.user as SessionPayload['user'] | undefined;
      const iat = payload.iat;
      const sid = payload.sid;
      if (!user || typeof user._id !== 'string' || typeof iat !== 'number' || typeof sid !== 'string') {
        throw new AppError('ERR_INVALID_ACCESS_TOKEN');
      }
      // One indexed lookup (sid_hash is unique) joined with the user; no cache, so a sign-out on one
      // instance is honoured by every other at once. The token is genuine: a failing database says
      // nothing about it, so it is not "invalid".
      const now = Date.now();
      let row: SessionCheckRow | undefined;
      try {
        const repository = sessionsRepository(db());
        sessionCheck ??= repository.compileCheck();
        row = await repository.check(sessionCheck, sha256(sid), user._id, now);
      } catch (err) {
        app.log.error({ err }, 'session check: database unavailable');
        throw unavailable();
      }
      // iat has second precision: a session issued in the same second as a revocation is revoked.
      if (!row || !row.active || iat * 1000 <= Number(row.sessions_valid_after) || pastDomainLimits(row, now)) {
        throw new AppError('ERR_INVALID_ACCESS_TOKEN');
      }
      return {
        id: row.id,
        email: row.email,
        profileId: user.profile_id ?? null,
        issuedAt: iat,
        sessionId: row.session_id,
        kind: row.kind,
        lastSeenAt: Number(row.last_seen_at),
        device: row.user_agent,
        method: sessionMethodOf(row.method),
        amr: row.amr ? row.amr.split(',') : [],
        aal: Number(row.aal),
        provedAt: row.proved_at === null ? null : Number(row.proved_at),
        confirmed: row.confirmed_at !== null,
        registered: row.registered_at !== null,
        twoStepGraceUntil:
          row.require_two_step && row.two_step_grace_until !== null ? Number(row.two_step_grace_until) : null,
        token,
      };
    },
    revoke: (userId, scope = {}, trx = db()) => sessionsRepository(trx).revoke(userId, scope),
  };

  /** Last seen and device (User-Agent), written at most once a minute per session. */
  async function touch(request: FastifyRequest, user: SessionUser): Promise<void> {
    const now = Date.now();
    const header = request.headers['user-agent'];
    const agent = typeof header === 'string' ? header.slice(0, 256) : null;
    if (now - user.lastSeenAt < TOUCH_EVERY_MS && (agent === null || agent === user.device)) return;
    await sessionsRepository(db())
      .touch(user.sessionId, now, agent)
      .catch((err: unknown) => request.log.warn({ err }, 'session last-seen not written'));
  }

  function bearer(request: FastifyRequest): string | null {
    const header = request.headers.authorization;
    if (!header) return null;
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
    return match?.[1] ?? null;
  }

  async function signedIn(request: FastifyRequest, kinds: readonly SessionKind[]): Promise<SessionUser> {
    const token = bearer(request);
    if (!token) throw new AppError('ERR_INVALID_ACCESS_TOKEN');
    const user = await sessions.verify(token);
    if (!kinds.includes(user.kind)) {
      // A genuine session of an account that has not finished registering: "finish first", not "sign in".
      throw new AppError(user.kind === 'welcome' ? 'ERR_REGISTRATION_INCOMPLETE' : 'ERR_INVALID_ACCESS_TOKEN');
    }
    await touch(request, user);
    return user;
  }

  const scoped = (kinds: readonly SessionKind[]) => async (request: FastifyRequest) => {
    request[SESSION_USER] = await signedIn(request, kinds);
  };
  const checks: Record<NonNullable<FastifyContextConfig['session']>, preHandlerAsyncHookHandler> = {
    full: scoped(SCOPE_KINDS.full),
    welcome: scoped(SCOPE_KINDS.welcome),
    password: scoped(SCOPE_KINDS.password),
    async optional(request) {
      if (!bearer(request)) return;
      // A bad token (or one of the welcome step) means "anonymous"; a database outage still answers 503.
      request[SESSION_USER] = await signedIn(request, SCOPE_KINDS.full).catch((error: unknown) => {
        if (
          error instanceof AppError &&
          ['ERR_INVALID_ACCESS_TOKEN', 'ERR_REGISTRATION_INCOMPLETE'].includes(error.code)
        )
          return null;
        throw error;
      });
    },
  };

  app.decorate('sessions', sessions);
  app.decorateRequest(SESSION_USER, null);
  app.decorateRequest('user', {
    getter(this: FastifyRequest) {
      // A programming error, met by the first test that calls the route: fail loudly, never read null.
      if (this.routeOptions.config.session === undefined) {
        throw new Error(
          `${this.routeOptions.method} ${this.routeOptions.url} reads request.user without config.session`,
        );
      }
      return this[SESSION_USER];
    },
  });
  app.addHook('onRoute', (route) => {
    const scope = route.config?.session;
    if (scope === undefined) return;
    // Before the body and parameters are validated: a caller without a session learns nothing of what a
    // valid call looks like, and the route's preHandlers (per-user limits) find the user set.
    route.preValidation = [checks[scope], ...[route.preValidation ?? []].flat()];
    const schema = route.schema ?? {};
    const response = (schema.response ?? {}) as Record<string, unknown>;
    route.schema =
      scope === 'optional'
        ? { ...schema, security: [...bearerSecurity, {}] }
        : {
            ...schema,
            security: bearerSecurity,
            response: { 401: ErrorBodySchema, 403: ErrorBodySchema, ...response },
          };
  });
}

export default fp(auth, { name: 'auth', dependencies: ['db'] });
