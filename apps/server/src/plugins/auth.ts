import fp from 'fastify-plugin';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionPayload } from '@suite/contract';
import { AppError } from '../errors.js';

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

export default fp(async function auth(app: FastifyInstance, opts: { secret: string; ttlSeconds: number }) {
  const key = new TextEncoder().encode(opts.secret);

  const sessions: Sessions = {
    async issue(user, options = {}) {
      // issuedAt (seconds) lets a caller that just revoked older sessions issue one that outlives the cut.
      return new SignJWT({ user })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuedAt(options.issuedAt)
        .setExpirationTime(Math.floor(Date.now() / 1000) + opts.ttlSeconds)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [ALGORITHM] });
        const user = payload.user as SessionPayload['user'] | undefined;
        if (!user || typeof user._id !== 'string' || typeof payload.iat !== 'number') throw new Error('shape');
        const row = await app.db.kysely
          .selectFrom('users')
          .select(['id', 'email', 'active', 'sessions_valid_after'])
          .where('id', '=', user._id)
          .executeTakeFirst();
        // iat has second precision: a session issued in the same second as a revocation is revoked.
        if (!row || !row.active || payload.iat * 1000 <= Number(row.sessions_valid_after)) throw new Error('revoked');
        return { id: row.id, email: row.email, profileId: user.profile_id ?? null, issuedAt: payload.iat };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof Error) {
          throw new AppError('ERR_INVALID_ACCESS_TOKEN');
        }
        throw error;
      }
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
    request.user = await sessions.verify(token).catch(() => null);
  });
});
