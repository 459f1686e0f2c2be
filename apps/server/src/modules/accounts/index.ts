import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config.js';
import { accountsDeps } from './deps.js';
import invitesRoutes from './invites/routes.js';
import loginRoutes from './login/routes.js';
import recoveryRoutes from './recovery/routes.js';
import settingsRoutes from './settings/routes.js';
import signupRoutes from './signup/routes.js';
import { STRATEGY_ROUTES } from './strategies/index.js';
import ssoRoutes from './sso/routes.js';

/**
 * The accounts module's public entry: the only file the rest of the server (other modules, jobs,
 * app.ts, bin/admin.ts) imports. One folder per flow (signup, login, recovery, settings, invites),
 * each with its routes → service → repository; one folder per sign-in method under `strategies/`
 * (strategies/index.ts), all of them asking the one sign-in policy (`policy/`); `identity/` (users,
 * sessions, factor changes), `codes/` and `domains/` are what the flows share.
 */
const accountsModule: FastifyPluginAsync<{ config: AppConfig }> = async (app, { config }) => {
  const deps = accountsDeps(app, config);
  for (const flow of [
    signupRoutes,
    loginRoutes,
    settingsRoutes,
    recoveryRoutes,
    invitesRoutes,
    ssoRoutes,
    ...STRATEGY_ROUTES,
  ]) {
    await app.register(flow, { deps });
  }
};

export default accountsModule;

export { accountsAdmin } from './admin.js';
export { INVITE_TTL_DAYS } from './invites/tokens.js';
export type { DomainChange, DomainRules } from './domains/repository.js';
export type { Connection as SsoConnection } from './sso/connections.js';
export { fetchIdpMetadata, parseIdpMetadata } from './strategies/saml/metadata.js';
export { certificatesOf } from './sso/metadata-refresh.js';
export { DomainTakenError, EntityIdTakenError } from './sso/connections.js';
export { DEFAULT_ATTRIBUTES } from './strategies/sso-attributes.js';
export { describeError } from './strategies/sso-failure.js';
export { ssoTestSignIn } from './sso/test-sign-in.js';

export { requireFreshProofAtAccountLevel } from './strategies/totp/service.js';
export { isPersonalAddress } from './domains/free-mail.js';
export { accessRequestsGate, type DomainSettings } from './domains/settings.js';
