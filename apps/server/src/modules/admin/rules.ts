import type { SecurityPolicy, SignupRules } from '@suite/contract';
import type { z } from 'zod';
import type { UpdateSecurityPolicyRequestSchema, UpdateSignupRulesRequestSchema } from '@suite/contract';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import { accountsAdmin, type DomainSettings } from '../accounts/index.js';
import { recordAudit } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { requireAdmin, requireFresh } from './guard.js';
import { iso } from './http.js';

const DAY_MS = 86_400_000;
const party = (u: { id: string; email: string }) => ({ id: u.id, email: u.email });

async function rulesOf(deps: AdminDeps, user: SessionUser, domain: string): Promise<SignupRules> {
  const accounts = accountsAdmin(deps.db);
  const [rules, settings, connection, used] = await Promise.all([
    accounts.domainRules(domain),
    accounts.domainSettings(domain),
    accounts.ssoConnections(deps.config.keys.sso).get(domain),
    accounts.confirmedUsers(domain),
  ]);
  return {
    mode: settings.signupMode,
    sso_only: rules.ssoOnly,
    // Turning password sign-in off is offered only to someone who just used the connection: a connection
    // that does not work would otherwise lock the whole domain out, its administrators first.
    sso_only_available: Boolean(connection) && user.method === 'sso',
    sso_connection: Boolean(connection),
    seats: { used, limit: rules.freePlanLimit },
  };
}

export async function getSignupRules(deps: AdminDeps, user: SessionUser, domain: string): Promise<SignupRules> {
  await requireAdmin(deps.db, user, domain);
  return rulesOf(deps, user, domain);
}

export async function setSignupRules(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  change: z.infer<typeof UpdateSignupRulesRequestSchema>,
  ip: string,
): Promise<SignupRules> {
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  const before = await rulesOf(deps, user, domain);
  if (change.sso_only === true && !before.sso_only && !before.sso_only_available) {
    throw new AppError('ERR_SSO_ONLY_NOT_ALLOWED');
  }
  await deps.db.transaction().execute(async (trx) => {
    const accounts = accountsAdmin(trx);
    if (change.mode !== undefined && change.mode !== before.mode) {
      await accounts.setDomainSettings(domain, { signupMode: change.mode });
      await recordAudit(trx, {
        kind: 'policy_changed',
        action: 'signup_mode',
        domain,
        actor: party(user),
        ip,
        details: { from: before.mode, to: change.mode },
      });
    }
    if (change.sso_only !== undefined && change.sso_only !== before.sso_only) {
      await accounts.setDomainRules(domain, { ssoOnly: change.sso_only });
      await recordAudit(trx, {
        kind: 'policy_changed',
        action: 'sso_only',
        domain,
        actor: party(user),
        ip,
        details: { from: before.sso_only, to: change.sso_only },
      });
    }
  });
  return rulesOf(deps, user, domain);
}

const policyOf = (s: DomainSettings): SecurityPolicy => ({
  require_two_step: s.requireTwoStep,
  two_step_grace_days: s.twoStepGraceDays,
  two_step_grace_until: s.requireTwoStep ? iso(s.twoStepGraceUntil) : null,
  session_max_ms: s.sessionMaxMs,
  session_idle_ms: s.sessionIdleMs,
  trust_browsers: s.trustBrowsers,
});

export async function getSecurityPolicy(deps: AdminDeps, user: SessionUser, domain: string): Promise<SecurityPolicy> {
  await requireAdmin(deps.db, user, domain);
  return policyOf(await accountsAdmin(deps.db).domainSettings(domain));
}

/**
 * Changes the policy; each changed field is one audit event. Turning two-step on starts the grace
 * (two_step_grace_days from now); the lifetime and idle limits apply to existing sessions at their
 * next request (accounts reads them on every session check); turning trusted browsers off voids the
 * trust already given at its next sign-in (the policy is read there, not stamped into the cookie).
 */
export async function setSecurityPolicy(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  change: z.infer<typeof UpdateSecurityPolicyRequestSchema>,
  ip: string,
): Promise<SecurityPolicy> {
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  const settings = await deps.db.transaction().execute(async (trx) => {
    const accounts = accountsAdmin(trx);
    const before = await accounts.domainSettings(domain);
    const next: Partial<DomainSettings> = {};
    if (change.two_step_grace_days !== undefined) next.twoStepGraceDays = change.two_step_grace_days;
    if (change.session_max_ms !== undefined) next.sessionMaxMs = change.session_max_ms;
    if (change.session_idle_ms !== undefined) next.sessionIdleMs = change.session_idle_ms;
    if (change.trust_browsers !== undefined) next.trustBrowsers = change.trust_browsers;
    if (change.require_two_step !== undefined && change.require_two_step !== before.requireTwoStep) {
      next.requireTwoStep = change.require_two_step;
      const days = next.twoStepGraceDays ?? before.twoStepGraceDays;
      next.twoStepGraceUntil = change.require_two_step && days > 0 ? Date.now() + days * DAY_MS : null;
    }
    const after = await accounts.setDomainSettings(domain, next);
    const fields: [string, unknown, unknown][] = [
      ['require_two_step', before.requireTwoStep, after.requireTwoStep],
      ['two_step_grace_days', before.twoStepGraceDays, after.twoStepGraceDays],
      ['session_max_ms', before.sessionMaxMs, after.sessionMaxMs],
      ['session_idle_ms', before.sessionIdleMs, after.sessionIdleMs],
      ['trust_browsers', before.trustBrowsers, after.trustBrowsers],
    ];
    for (const [action, from, to] of fields) {
      if (from === to) continue;
      await recordAudit(trx, {
        kind: 'policy_changed',
        action,
        domain,
        actor: party(user),
        ip,
        details: { from: from as number | boolean | null, to: to as number | boolean | null },
      });
    }
    return after;
  });
  return policyOf(settings);
}

/**
 * The operator's switch for trusted browsers (bin/admin.ts `domain set --[no-]trust-browsers`): no
 * session and no fresh proof, but the same audit event as the console's, without an actor, so the
 * domain's administrators see in their trail who (the operator) changed their policy.
 */
export async function operatorSetTrustBrowsers(db: AdminDeps['db'], domain: string, on: boolean): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const accounts = accountsAdmin(trx);
    const before = await accounts.domainSettings(domain);
    if (before.trustBrowsers === on) return on;
    const after = await accounts.setDomainSettings(domain, { trustBrowsers: on });
    await recordAudit(trx, {
      kind: 'policy_changed',
      action: 'trust_browsers',
      domain,
      details: { from: before.trustBrowsers, to: after.trustBrowsers },
    });
    return after.trustBrowsers;
  });
}
