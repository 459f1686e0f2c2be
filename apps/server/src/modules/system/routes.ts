import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, HealthSchema, PublicConfigSchema, ErrorBodySchema, LANGUAGES } from '@suite/contract';
import { ping } from '../../db/database.js';
import { AppError } from '../../errors.js';
import type { AppConfig } from '../../config.js';

const TERMS_BASE: Record<string, string> = { en: 'en', pt: 'pt-br', es: 'es', hi: 'hi', it: 'it' };

/** Health and the web app's runtime settings. */
const systemRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  app.get(
    API.health,
    { schema: { tags: ['system'], response: { 200: HealthSchema, 503: ErrorBodySchema } } },
    async () => {
      try {
        await ping(app.db);
      } catch {
        throw new AppError('ERR_SERVICE_UNAVAILABLE');
      }
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );

  const legal = (kind: 'terms' | 'privacy') =>
    Object.fromEntries(LANGUAGES.map((l) => [l, `${config.publicUrl}/legal/${kind}-${TERMS_BASE[l]}.html`]));
  const publicConfig = {
    appTitle: config.appTitle,
    mainAppUrl: config.mainAppUrl,
    meetDomain: config.meet.domain ? `${config.meet.scheme}://${config.meet.domain}` : null,
    // JaaS rooms, script and app links live under the app id (the token signer prefers JaaS the same way).
    jaasAppId: config.meet.domain && config.meet.jaas ? config.meet.jaas.appId : null,
    captchaSiteKey: config.captchaSiteKey,
    hideHeader: config.hideHeader,
    hideFooter: config.hideFooter,
    environment: config.appEnv,
    errorReportingDsn: config.errorReportingDsn ?? null,
    publicSignup: config.publicSignup,
    maxUploadBytes: config.maxUploadBytes,
    termsUrls: legal('terms'),
    privacyUrls: legal('privacy'),
  };
  app.get(API.config, { schema: { tags: ['system'], response: { 200: PublicConfigSchema } } }, async (_req, reply) => {
    void reply.header('cache-control', 'no-cache');
    return publicConfig;
  });
};

export default systemRoutes;
