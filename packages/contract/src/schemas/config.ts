import '../zod-config.js';
import { z } from 'zod';

/** Runtime settings the server gives the web app (GET /api/config): one build, any deployment. */
export const PublicConfigSchema = z.object({
  appTitle: z.string(),
  mainAppUrl: z.string(),
  meetDomain: z.string().nullable(),
  /** 8x8 JaaS app id when meetings run on JaaS: rooms, script and app links live under it. */
  jaasAppId: z.string().nullable().optional(),
  captchaSiteKey: z.string(),
  hideHeader: z.boolean(),
  hideFooter: z.boolean(),
  environment: z.enum(['development', 'test', 'alpha', 'production']),
  errorReportingDsn: z.string().nullable(),
  publicSignup: z.boolean(),
  maxUploadBytes: z.number(),
  /** How long an e-mailed code lives (CODE_TTL_SECONDS): the code screen says it as the mail does. */
  codeTtlSeconds: z.number().optional(),
  termsUrls: z.record(z.string(), z.string()),
  privacyUrls: z.record(z.string(), z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

/**
 * `/api/health`, the balancer's readiness check: 200 while the database answers, 503 (with the catalogue's
 * ERR_SERVICE_UNAVAILABLE and Retry-After) while it does not. Redis has a per-instance fallback, so
 * Redis down is `degraded`, not down; `not_configured`: no REDIS_URL.
 */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  database: z.enum(['ok', 'down']),
  redis: z.enum(['ok', 'degraded', 'not_configured']),
  storage: z.enum(['ok', 'down']),
  error_code: z.literal('ERR_SERVICE_UNAVAILABLE').optional(),
  message: z.string().optional(),
});
export type Health = z.infer<typeof HealthSchema>;
