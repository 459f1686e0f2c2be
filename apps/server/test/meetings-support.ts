import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createTestApp, insertSignedInUser } from './helpers.js';

/** A confirmed, active user inserted directly, with a session token from the real session issuer. */
export async function signedInUser(app: FastifyInstance, first = 'Ana', last = 'Host') {
  const email = `${first.toLowerCase()}.${randomBytes(3).toString('hex')}@acme.test`;
  const { id, token } = await insertSignedInUser(app, { email, first, last, createdAt: Date.now() - 10_000 });
  return { id, email, name: `${first} ${last}`, headers: { authorization: `Bearer ${token}` } };
}

/** A self-hosted app (MEETING_IDLE_MINUTES 30) with two signed-in users: Ana the host and Bruno. */
export async function hostAndOther() {
  const t = await createTestApp({ ...SELF_HOSTED, MEETING_IDLE_MINUTES: '30' });
  return { t, host: await signedInUser(t.app, 'Ana', 'Host'), other: await signedInUser(t.app, 'Bruno', 'Other') };
}

/**
 * Self-hosted Jitsi. These suites test the spec's flow (anyone with the link once the host is there):
 * they state the `open` access level; the lobby's own suite states the others.
 */
export const SELF_HOSTED = {
  MEETING_DEFAULT_ACCESS: 'open',
  MEET_DOMAIN: 'meet.acme.test',
  JITSI_APP_ID: 'suite-app',
  JITSI_APP_SECRET: 'a-long-shared-secret-for-jitsi-0123456789',
};
