import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** A confirmed, active user inserted directly, with a session token from the real session issuer. */
export async function signedInUser(app: FastifyInstance, first = 'Ana', last = 'Host') {
  const id = randomBytes(12).toString('hex');
  const email = `${first.toLowerCase()}.${id.slice(0, 6)}@acme.test`;
  const now = Date.now();
  await app.db.kysely
    .insertInto('users')
    .values({
      id,
      email,
      password_hash: null,
      first_name: first,
      last_name: last,
      language: 'en',
      preferences: '{}',
      confirmed_at: now,
      registered_at: now,
      invited_by: null,
      created_at: now - 10_000,
    })
    .execute();
  const token = await app.sessions.issue({ _id: id, email, preferences: {}, profile_id: null });
  return { id, email, name: `${first} ${last}`, headers: { authorization: `Bearer ${token}` } };
}

export const SELF_HOSTED = {
  MEET_DOMAIN: 'meet.acme.test',
  JITSI_APP_ID: 'suite-app',
  JITSI_APP_SECRET: 'a-long-shared-secret-for-jitsi-0123456789',
};
