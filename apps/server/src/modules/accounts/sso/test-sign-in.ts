import type { FastifyInstance, FastifyReply } from 'fastify';
import { SSO_REQUEST_TTL_SECONDS, type SsoTestResult } from '@suite/contract';
import type { AppConfig } from '../../../config.js';
import { accountsDeps } from '../deps.js';
import { BINDING_COOKIE, bindingCookieOf } from './routes.js';
import { ssoFlow } from './service.js';

/**
 * The console's Test sign-in (modules/admin calls it once it has checked the caller administers the
 * domain): the real flow of the domain's connection, started like a sign-in (this browser's binding
 * cookie set with the answer), whose return is reported to the administrator instead of signing anyone in.
 */
export function ssoTestSignIn(app: FastifyInstance, config: AppConfig) {
  const flow = ssoFlow(accountsDeps(app, config));
  return {
    /** The provider's address to open, or null when the domain has no connection. */
    async start(reply: FastifyReply, domain: string, userId: string): Promise<string | null> {
      const started = await flow.testStart(domain, userId);
      if (started.kind === 'not-configured') return null;
      reply.setCookie(BINDING_COOKIE, started.binding, {
        ...bindingCookieOf(config.publicUrl),
        maxAge: SSO_REQUEST_TTL_SECONDS,
      });
      return started.url;
    },
    result: (domain: string, userId: string): Promise<SsoTestResult | null> => flow.testResult(domain, userId),
  };
}
