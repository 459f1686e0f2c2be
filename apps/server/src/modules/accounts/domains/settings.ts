import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  ACCESS_APPROVAL_TTL_MS,
  ACCESS_REQUEST_PER_ADDRESS,
  ACCESS_REQUEST_WINDOW_MS,
  type Language,
  type SignupMode,
} from '@suite/contract';
import type { Database } from '../../../db/schema.js';

/**
 * A domain's sign-up mode and security policy, as its administrators set them in the console
 * (modules/admin). A domain without a row is open and has no policy.
 */
export interface DomainSettings {
  signupMode: SignupMode;
  requireTwoStep: boolean;
  twoStepGraceDays: number;
  /** Epoch ms; null: no grace running. */
  twoStepGraceUntil: number | null;
  sessionMaxMs: number | null;
  sessionIdleMs: number | null;
  /** A completed two-step sign-in may trust its browser for TRUSTED_BROWSER_TTL_MS. */
  trustBrowsers: boolean;
}

export type DomainSettingsChange = Partial<DomainSettings>;

const DEFAULTS: DomainSettings = {
  signupMode: 'open',
  requireTwoStep: false,
  twoStepGraceDays: 0,
  twoStepGraceUntil: null,
  sessionMaxMs: null,
  sessionIdleMs: null,
  trustBrowsers: true,
};

export function domainSettingsRepository(db: Kysely<Database>) {
  async function get(domain: string): Promise<DomainSettings> {
    const row = await db.selectFrom('domain_settings').selectAll().where('domain', '=', domain).executeTakeFirst();
    if (!row) return { ...DEFAULTS };
    return {
      signupMode: row.signup_mode,
      requireTwoStep: Boolean(row.require_two_step),
      twoStepGraceDays: Number(row.two_step_grace_days),
      twoStepGraceUntil: row.two_step_grace_until === null ? null : Number(row.two_step_grace_until),
      sessionMaxMs: row.session_max_ms === null ? null : Number(row.session_max_ms),
      sessionIdleMs: row.session_idle_ms === null ? null : Number(row.session_idle_ms),
      trustBrowsers: Boolean(row.trust_browsers),
    };
  }
  return {
    get,
    async set(domain: string, change: DomainSettingsChange): Promise<DomainSettings> {
      const current = await get(domain);
      const next = { ...current, ...change };
      if (current.trustBrowsers && !next.trustBrowsers) {
        // Forbidding trusted browsers (often after a lost laptop) ends the trust already given: every
        // entry names its account's credential generation (identity/trusted-browser.ts), so moving it
        // for the whole domain voids them all at once, and allowing it again later revives none.
        await db
          .updateTable('users')
          .set((eb) => ({ credential_generation: eb('credential_generation', '+', 1) }))
          .where('domain', '=', domain)
          .execute();
      }
      const row = {
        signup_mode: next.signupMode,
        require_two_step: Number(next.requireTwoStep),
        two_step_grace_days: next.twoStepGraceDays,
        two_step_grace_until: next.twoStepGraceUntil,
        session_max_ms: next.sessionMaxMs,
        session_idle_ms: next.sessionIdleMs,
        trust_browsers: Number(next.trustBrowsers),
        updated_at: Date.now(),
      };
      // The domain's row too: the sign-in reads the policy joined to it (domainsRepository.rules).
      await db
        .insertInto('domains')
        .values({ name: domain, updated_at: row.updated_at })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      await db
        .insertInto('domain_settings')
        .values({ domain, ...row })
        .onConflict((oc) => oc.column('domain').doUpdateSet(row))
        .execute();
      return next;
    },
  };
}

/**
 * Access requests as sign-up sees them: whether an administrator approved this address, and a new
 * request (the administrators are mailed by modules/admin's notifier, which picks up every request not
 * yet announced). `open` answers false when the address had its share of requests in the window or
 * asks the same thing already: nothing is stored then, and the caller answers the same. There is no
 * per-domain bound here: made-up addresses of a domain would crowd a real colleague out; the notifier
 * bounds the administrators' mail instead, and the per-address and per-IP limits bound storage.
 */
export function accessRequestsGate(db: Kysely<Database>) {
  return {
    /**
     * The approval that admits this address's sign-up now, if any: decided within ACCESS_APPROVAL_TTL_MS,
     * not used yet, and given under the domain's current mode: an invite-only domain honours only what
     * its administrators approved as an exception to invite-only, not approvals of an earlier mode.
     */
    async approval(email: string, mode: 'approval' | 'invite', now = Date.now()): Promise<string | undefined> {
      const row = await db
        .selectFrom('access_requests')
        .select('id')
        .where('email', '=', email)
        .where('status', '=', 'approved')
        .where('used_at', 'is', null)
        .where('decided_at', '>', now - ACCESS_APPROVAL_TTL_MS)
        .where('reason', 'in', mode === 'invite' ? ['invite_only'] : ['invite_only', 'approval'])
        .orderBy('decided_at', 'desc')
        .executeTakeFirst();
      return row?.id;
    },
    /** Spends the approval on the sign-up it admits (in the sign-up's transaction); false: spent already. */
    async use(id: string, now = Date.now()): Promise<boolean> {
      const done = await db
        .updateTable('access_requests')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },
    async open(input: {
      email: string;
      domain: string;
      reason: 'domain_inactive' | 'sso_unavailable' | 'invite_only' | 'approval';
      message: string | null;
      language: Language;
    }): Promise<boolean> {
      const since = Date.now() - ACCESS_REQUEST_WINDOW_MS;
      const recent = await db
        .selectFrom('access_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('email', '=', input.email)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= ACCESS_REQUEST_PER_ADDRESS) return false;
      // A pending request of the same address and reason is asked again by nobody: one mail per question.
      const pending = await db
        .selectFrom('access_requests')
        .select('id')
        .where('email', '=', input.email)
        .where('reason', '=', input.reason)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (pending) return false;
      await db
        .insertInto('access_requests')
        .values({
          id: randomUUID(),
          domain: input.domain,
          email: input.email,
          reason: input.reason,
          message: input.message,
          language: input.language,
          status: 'pending',
          token_hash: null,
          token_expires_at: null,
          created_at: Date.now(),
          decided_at: null,
          decided_by: null,
          used_at: null,
        })
        .execute();
      return true;
    },
  };
}
