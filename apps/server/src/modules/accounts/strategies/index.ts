import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountsDeps } from '../deps.js';
import emailCodeRoutes from './email-code/routes.js';
import passwordRoutes from './password/routes.js';
import recoveryCodeRoutes from './recovery-code/routes.js';
import totpRoutes from './totp/routes.js';
import webauthnRoutes from './webauthn/routes.js';

/**
 * The sign-in methods whose routes this module serves, one folder each (its `method.ts` declares
 * what it proves; the policy reads only that). Single sign-on (strategies/oidc, strategies/saml)
 * is served by sso/routes.ts. A new method is a new folder and its line here.
 */
export const STRATEGY_ROUTES: readonly FastifyPluginAsyncZod<{ deps: AccountsDeps }>[] = [
  passwordRoutes,
  emailCodeRoutes,
  webauthnRoutes,
  totpRoutes,
  recoveryCodeRoutes,
];
