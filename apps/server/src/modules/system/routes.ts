import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, HealthSchema, OkSchema, PublicConfigSchema, LANGUAGES, type Health } from '@suite/contract';
import { ping } from '../../db/database.js';
import type { AppConfig } from '../../config.js';
import { unavailable } from '../../errors.js';

const TERMS_BASE: Record<string, string> = { en: 'en', pt: 'pt-br', es: 'es', hi: 'hi', it: 'it' };

/** How long a dependency's successful probe stands for /api/health (a failure is never kept). */
const PROBE_OK_MS = 1_000;

/** Health and the web app's runtime settings. */
const systemRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  /** Storage answers for a key that never exists (null), or fails: a HEAD on S3, a stat on disk. */
  const PROBE_KEY = 'health-probe-never-stored';
  const within = <T>(ms: number, work: Promise<T>) =>
    Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
  const healthy = (work: () => Promise<unknown>) =>
    within(2_000, work()).then(
      () => true,
      () => false,
    );
  /**
   * One probe at a time, shared by the checks that arrive while it runs (a balancer's and a load's
   * checks cost one query, not one each); its success stands for PROBE_OK_MS, so a dependency that goes
   * away shows within about a second. forget() drops a kept success at once.
   */
  const sharedProbe = (work: () => Promise<unknown>) => {
    let running: Promise<boolean> | undefined;
    let okUntil = 0;
    let generation = 0;
    return {
      check(): boolean | Promise<boolean> {
        if (performance.now() < okUntil) return true;
        const started = generation;
        return (running ??= healthy(work).then((ok) => {
          running = undefined;
          okUntil = ok && started === generation ? performance.now() + PROBE_OK_MS : 0;
          return ok;
        }));
      },
      forget() {
        generation++;
        okUntil = 0;
      },
    };
  };
  const databaseProbe = sharedProbe(() => ping(app.db));
  const storageProbe = sharedProbe(() => app.storage.stat(PROBE_KEY));
  // A PostgreSQL connection dropped (server stopping): the next check asks the database again.
  app.onDatabaseLost(() => databaseProbe.forget());

  /** The answer for a state, given its probes' results (JSON text: it is asked for by every balancer). */
  const healthAnswer = (database: boolean, storage: boolean) => {
    const redis =
      app.counters.mode === 'memory' ? 'not_configured' : app.counters.mode === 'shared' ? 'ok' : 'degraded';
    const body: Health = {
      status: database && storage && redis !== 'degraded' ? 'ok' : 'degraded',
      database: database ? 'ok' : 'down',
      redis,
      storage: storage ? 'ok' : 'down',
    };
    // Without its database an instance can serve nothing useful: the balancer takes it out of rotation.
    if (database) return { status: 200, headers: undefined, json: JSON.stringify(body) };
    const error = unavailable();
    const down: Health = {
      ...body,
      status: 'down',
      error_code: 'ERR_SERVICE_UNAVAILABLE',
      message: error.message,
    };
    return { status: 503, headers: error.headers, json: JSON.stringify(down) };
  };
  const sendHealth = (reply: FastifyReply, database: boolean, storage: boolean): void => {
    const answer = healthAnswer(database, storage);
    if (answer.headers) void reply.headers(answer.headers);
    // A string with a JSON content type is sent as it is (the schema documents it).
    void reply
      .status(answer.status)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(answer.json as never);
  };

  app.get(
    API.health,
    { schema: { tags: ['system'], response: { 200: HealthSchema, 503: HealthSchema } } },
    (_request, reply) => {
      const database = databaseProbe.check();
      const storage = storageProbe.check();
      // Both kept from a probe within the second (the common case): answered at once, no promise.
      if (database === true && storage === true) return sendHealth(reply, true, true);
      return Promise.all([database, storage]).then(([db, store]) => {
        sendHealth(reply, db, store);
      });
    },
  );
  app.get(API.healthLive, { schema: { tags: ['system'], response: { 200: OkSchema } } }, async () => ({
    ok: true as const,
  }));

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
    codeTtlSeconds: Math.round(config.codeTtlMs / 1000),
    termsUrls: legal('terms'),
    privacyUrls: legal('privacy'),
  };
  // Fixed for the life of the process: checked against its schema and serialized once.
  const configJson = JSON.stringify(PublicConfigSchema.parse(publicConfig));
  app.get(API.config, { schema: { tags: ['system'], response: { 200: PublicConfigSchema } } }, async (_req, reply) =>
    // A string with a JSON content type is sent as it is (the schema above documents it).
    reply
      .header('cache-control', 'no-cache')
      .type('application/json; charset=utf-8')
      .send(configJson as never),
  );
};

export default systemRoutes;
