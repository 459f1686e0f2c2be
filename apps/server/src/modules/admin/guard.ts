import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../plugins/auth.js';
import { requireFreshProofAtAccountLevel } from '../accounts/index.js';
import { NOT_FOUND } from './http.js';
import { adminsRepository } from './repository.js';

/**
 * Every console call names a domain (in its path, or through the person or request it names): the
 * caller must administer it, or the answer is 404, the same as for an id that does not exist, so the
 * console reveals neither itself nor another domain's people.
 */
export async function requireAdmin(db: Kysely<Database>, user: SessionUser, domain: string): Promise<void> {
  if (!(await adminsRepository(db).isAdmin(user.id, domain))) throw NOT_FOUND();
}

/**
 * Actions (not reads) need a proof within PROOF_FRESH_MS, the rule and the 403 ERR_PROOF_REQUIRED of
 * the Security panel: a stolen session alone cannot deactivate people or change a domain's policy.
 * An administrator with two-step verification on must stand at AAL2 as well (the app or a passkey):
 * a trusted browser's sign-in proved the password only, and must not act on other people's accounts.
 */
export function requireFresh(db: Kysely<Database>, user: SessionUser): Promise<void> {
  return requireFreshProofAtAccountLevel(db, user);
}
