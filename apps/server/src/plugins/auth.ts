import fp from 'fastify-plugin';
import { SignJWT, type JWTPayload } from 'jose';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionPayload } from '@suite/contract';
import { AppError } from '../errors.js';
import { serviceUnavailable } from '../db/outage.js';
import { verifyWithRing, type KeyRing } from '../keys.js';

export interface SessionUser {
  id: string;
  email: string;
  profileId: string | null;
  /** Seconds since epoch at which the session was issued. */
  issuedAt: number;
}

export interface Sessions {
  /** A session JWT whose payload is the spec's `{ user: {_id, email, preferences, profile_id}, exp }` (+ iat). */
  issue(user: SessionPayload['user'], options?: { issuedAt?: number }): Promise<string>;
  verify(token: string): Promise<SessionUser>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
    /** preHandler: requires a valid bearer session; sets request.user. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: sets request.user when a valid bearer session is present, ignores it otherwise. */
    optionalAuthenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

const ALGORITHM = 'HS256';

export default fp(async function auth(app: FastifyInstance, opts: { keys: KeyRing; ttlSeconds: number }) {
  const sessions: Sessions = {
    async issue(user, options = {}) {
      // issuedAt (seconds) lets a caller that just revoked older sessions issue one that outlives the cut.
      return new SignJWT({ user })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuedAt(options.issuedAt)
        .setExpirationTime(Math.floor(Date.now() / 1000) + opts.ttlSeconds)
        .sign(opts.keys.sign);
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
      if (!user || typeof user._id !== 'string' || typeof iat !== 'number') {
        throw new AppError('ERR_INVALID_ACCESS_TOKEN');
      }
      // The token is genuine: a failing database says nothing about it, so it is not "invalid".
      let row: { id: string; email: string; active: number; sessions_valid_after: number } | undefined;
      try {
        row = await app.db.kysely
          .selectFrom('users')
          .select(['id', 'email', 'active', 'sessions_valid_after'])
          .where('id', '=', user._id)
          .executeTakeFirst();
      } catch (err) {
        app.log.error({ err }, 'session check: database unavailable');
        throw serviceUnavailable();
      }
      // iat has second precision: a session issued in the same second as a revocation is revoked.
      if (!row || !row.active || iat * 1000 <= Number(row.sessions_valid_after)) {
        throw new AppError('ERR_INVALID_ACCESS_TOKEN');
      }
      return { id: row.id, email: row.email, profileId: user.profile_id ?? null, issuedAt: iat };
    },
  };

  function bearer(request: FastifyRequest): string | null {
    const header = request.headers.authorization;
    if (!header) return null;
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
    return match?.[1] ?? null;
  }

  app.decorateRequest('user', null);
  app.decorate('sessions', sessions);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearer(request);
    if (!token) throw new AppError('ERR_INVALID_ACCESS_TOKEN');
    request.user = await sessions.verify(token);
  });
  app.decorate('optionalAuthenticate', async (request: FastifyRequest) => {
    const token = bearer(request);
    if (!token) return;
    // A bad token means "anonymous"; a database outage still answers 503.
    request.user = await sessions.verify(token).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'ERR_INVALID_ACCESS_TOKEN') return null;
      throw error;
    });
  });
});
