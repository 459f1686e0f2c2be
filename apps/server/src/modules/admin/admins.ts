import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  ADMIN_CLAIM_GRACE_MS,
  ADMIN_CLAIM_RECHECK_MS,
  ADMIN_WEB_PATHS,
  emailDomain,
  normalizeEmail,
  type AdminClaimResponse,
  type AdminListResponse,
  type AdminMeResponse,
  type Language,
} from '@suite/contract';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import { accountsAdmin, isPersonalAddress } from '../accounts/index.js';
import { recordAudit } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { checkChallenge, challengeName } from './dns.js';
import { requireAdmin, requireFresh } from './guard.js';
import { NOT_FOUND, iso } from './http.js';
import { adminsRepository, type Via } from './repository.js';

const party = (u: { id: string; email: string }) => ({ id: u.id, email: u.email });

/**
 * The value a person publishes to prove a domain: an HMAC of (domain, person) under the admin key, so
 * nothing is stored, a value proves one person for one domain, and someone who reads the record cannot
 * use it for another person. Every key of the ring is accepted (SESSION_SECRET_PREVIOUS during a rotation).
 */
function challengeValues(config: AppConfig, domain: string, userId: string): string[] {
  const ring = config.keys.admin;
  return [ring.sign, ...ring.verify].map(
    (key) => `suite-verify=${createHmac('sha256', key).update(`${domain}\n${userId}`).digest('base64url')}`,
  );
}

export async function adminMe(deps: AdminDeps, user: SessionUser): Promise<AdminMeResponse> {
  const rows = await adminsRepository(deps.db).domainsOf(user.id);
  if (rows.length === 0) throw NOT_FOUND();
  return { domains: rows.map((r) => ({ domain: r.domain, via: r.via })) };
}

/** Who may prove a domain: a registered person with an address of it, not a free-mail provider's. */
async function claimableDomain(user: SessionUser): Promise<string> {
  const domain = emailDomain(user.email);
  if (!user.registered || (await isPersonalAddress(domain))) throw new AppError('ERR_CLAIM_NOT_ALLOWED');
  return domain;
}

export async function claimInfo(deps: AdminDeps, user: SessionUser): Promise<AdminClaimResponse> {
  const domain = await claimableDomain(user);
  return {
    domain,
    record_name: challengeName(domain),
    record_type: 'TXT',
    record_value: challengeValues(deps.config, domain, user.id)[0] as string,
    admin: await adminsRepository(deps.db).isAdmin(user.id, domain),
  };
}

/** Checks the record now; on success the caller administers the domain (and the act is in the trail). */
export async function verifyClaim(deps: AdminDeps, user: SessionUser, ip: string): Promise<AdminMeResponse> {
  const domain = await claimableDomain(user);
  const result = await checkChallenge(deps.config.dnsServers, domain, challengeValues(deps.config, domain, user.id));
  if (result === 'unavailable') throw new AppError('ERR_DNS_UNAVAILABLE', { retryAfterS: 30 });
  if (result === 'missing') throw new AppError('ERR_CLAIM_RECORD_MISSING');
  if (result === 'mismatch') throw new AppError('ERR_CLAIM_RECORD_MISMATCH');
  await deps.db.transaction().execute(async (trx) => {
    const added = await adminsRepository(trx).add({ domain, userId: user.id, via: 'dns', grantedBy: null });
    await recordAudit(trx, {
      kind: 'admin_action',
      action: added ? 'admin_claimed' : 'admin_claim_renewed',
      domain,
      actor: party(user),
      target: party(user),
      ip,
    });
  });
  return adminMe(deps, user);
}

export async function listAdmins(deps: AdminDeps, user: SessionUser, domain: string): Promise<AdminListResponse> {
  await requireAdmin(deps.db, user, domain);
  return listOf(deps.db, domain);
}

async function listOf(db: Kysely<Database>, domain: string): Promise<AdminListResponse> {
  const rows = await adminsRepository(db).list(domain);
  return {
    admins: rows.map((r) => ({
      user_id: r.user_id,
      email: r.email,
      name: `${r.first_name} ${r.last_name}`.trim(),
      via: r.via,
      created_at: iso(r.created_at) as string,
      drops_at: r.record_missing_since === null ? null : iso(Number(r.record_missing_since) + ADMIN_CLAIM_GRACE_MS),
    })),
  };
}

/** A registered person of the domain becomes an administrator. */
async function grant(
  trx: Kysely<Database>,
  domain: string,
  email: string,
  via: Via,
  actor: { id: string; email: string } | null,
  ip: string | null,
): Promise<void> {
  const address = normalizeEmail(email);
  const person = await accountsAdmin(trx).userByEmail(address);
  if (!person || person.domain !== domain || person.registered_at === null) {
    throw new AppError('ERR_ADMIN_NOT_IN_DOMAIN');
  }
  if (!(await adminsRepository(trx).add({ domain, userId: person.id, via, grantedBy: actor?.id ?? null }))) {
    throw new AppError('ERR_ADMIN_ALREADY');
  }
  await recordAudit(trx, { kind: 'admin_action', action: 'admin_added', domain, actor, target: party(person), ip });
}

export async function addAdmin(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  email: string,
  ip: string,
): Promise<AdminListResponse> {
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  return deps.db.transaction().execute(async (trx) => {
    await grant(trx, domain, email, 'admin', party(user), ip);
    return listOf(trx, domain);
  });
}

/** An administrator removes another (or themself, unless they are the last one). */
export async function removeAdmin(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  userId: string,
  ip: string,
): Promise<AdminListResponse> {
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  return deps.db.transaction().execute(async (trx) => {
    const admins = adminsRepository(trx);
    const target = (await admins.list(domain)).find((a) => a.user_id === userId);
    if (!target) throw NOT_FOUND();
    if (userId === user.id && (await admins.count(domain)) <= 1) throw new AppError('ERR_ADMIN_LAST');
    await admins.remove(domain, userId);
    await recordAudit(trx, {
      kind: 'admin_action',
      action: 'admin_removed',
      domain,
      actor: party(user),
      target: { id: target.user_id, email: target.email },
      ip,
    });
    return listOf(trx, domain);
  });
}

/** The operator's commands (bin/admin.ts): no session, no fresh proof, the last admin may go. */
export function operatorAdmins(db: Kysely<Database>) {
  return {
    list: (domain: string) => listOf(db, domain),
    add: (domain: string, email: string) =>
      db.transaction().execute((trx) => grant(trx, domain, email, 'operator', null, null)),
    async remove(domain: string, email: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const person = await accountsAdmin(trx).userByEmail(normalizeEmail(email));
        if (!person || !(await adminsRepository(trx).remove(domain, person.id))) return false;
        await recordAudit(trx, { kind: 'admin_action', action: 'admin_removed', domain, target: party(person) });
        return true;
      });
    },
  };
}

/**
 * The daily check of DNS claims: a record still there clears any grace; a record gone starts one (the
 * domain's administrators are mailed once) and, once ADMIN_CLAIM_GRACE_MS has passed with the record
 * still gone, drops the claim. A resolver that does not answer changes nothing (checked again next run).
 * Returns how many claims were dropped.
 */
export async function recheckClaims(deps: AdminDeps, now = Date.now()): Promise<number> {
  const due = await adminsRepository(deps.db).dueClaims(now - ADMIN_CLAIM_RECHECK_MS, 100);
  let dropped = 0;
  for (const claim of due) {
    const result = await checkChallenge(
      deps.config.dnsServers,
      claim.domain,
      challengeValues(deps.config, claim.domain, claim.user_id),
    );
    if (result === 'unavailable') continue;
    const missingSince = claim.record_missing_since === null ? null : Number(claim.record_missing_since);
    await deps.db.transaction().execute(async (trx) => {
      const admins = adminsRepository(trx);
      if (result === 'found') return admins.checked(claim.domain, claim.user_id, now, null);
      if (missingSince !== null && now - missingSince >= ADMIN_CLAIM_GRACE_MS) {
        await admins.remove(claim.domain, claim.user_id);
        await recordAudit(trx, {
          kind: 'admin_action',
          action: 'admin_claim_dropped',
          domain: claim.domain,
          target: { id: claim.user_id, email: claim.email },
          reason: 'dns_record_missing',
        });
        dropped++;
        return;
      }
      await admins.checked(claim.domain, claim.user_id, now, missingSince ?? now);
      if (missingSince !== null) return;
      await recordAudit(trx, {
        kind: 'admin_action',
        action: 'admin_claim_record_missing',
        domain: claim.domain,
        target: { id: claim.user_id, email: claim.email },
        reason: result,
      });
      for (const admin of await admins.list(claim.domain)) {
        await deps.mailer.queue(trx, {
          kind: 'claim-vanished',
          to: admin.email,
          language: admin.language as Language,
          domain: claim.domain,
          link: `${deps.config.publicUrl}${ADMIN_WEB_PATHS.console}`,
          until: now + ADMIN_CLAIM_GRACE_MS,
        });
      }
    });
  }
  if (due.length > 0) deps.mailer.kick();
  return dropped;
}

/** Constant-time comparison of two strings of hex/base64url. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
