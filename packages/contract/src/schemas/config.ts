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
  termsUrls: z.record(z.string(), z.string()),
  privacyUrls: z.record(z.string(), z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });
