import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.js';
import { AppError } from '../errors.js';
import { droppedLogLines } from '../logging.js';
import { outboxRepository } from './outbox-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a failed storage call (`operation`: put, get, stat, delete) in suite_storage_errors_total. */
    recordStorageError: (operation: string) => void;
    /** Counts a single-sign-on sign-in that ended on the error page, by step/protocol and reason. */
    recordSsoFailure: (protocol: string, reason: string) => void;
    /**
     * The signing certificates' ends of every SAML connection (the metadata job, daily and at start):
     * suite_sso_certificate_expiry_seconds, the seconds left of each connection's soonest-ending one.
     */
    recordSsoCertificates: (connections: { connection: string; domain: string; expiresAt: number }[]) => void;
    /** Counts an undelivered mail in suite_mail_failures_total (`reason`: temporary, permanent, expired, gave_up). */
    recordMailFailure: (reason: string) => void;
  }
}

/**
 * Prometheus metrics (fastify-metrics over prom-client, one registry per server): request counts and
 * durations by route and status (http_request_duration_seconds histogram), whether the database
 * answers (suite_database_up), the outbox's depth and oldest age, rate-limit store fallbacks, storage
 * errors, log lines dropped, and the Node.js process metrics.
 *
 * Exposed only when asked for (otherwise nothing is collected, and /metrics is a 404 like any
 * unknown path): METRICS_TOKEN serves GET /metrics on the public port to `Authorization: Bearer
 * <token>` alone; METRICS_PORT serves it on a separate listener (METRICS_HOST, default 127.0.0.1),
 * with the same token check when a token is set. Off, prom-client and fastify-metrics are never loaded.
 */
export default fp(
  async function metrics(app: FastifyInstance, opts: { config: AppConfig }) {
    const { token, port, host } = opts.config.metrics;
    if (!token && !port) {
      app.decorate('recordStorageError', () => undefined);
      app.decorate('recordSsoFailure', () => undefined);
      app.decorate('recordSsoCertificates', () => undefined);
      app.decorate('recordMailFailure', () => undefined);
      return;
    }
    const [{ default: client }, { default: metricsModule }] = await Promise.all([
      import('prom-client'),
      import('fastify-metrics'),
    ]);
    // A CommonJS module: Node gives ESM its exports object, whose `default` is the plugin.
    const fastifyMetrics = metricsModule.default;
    const registry = new client.Registry();
    const storageErrors = new client.Counter({
      name: 'suite_storage_errors_total',
      help: 'Failed calls to the file storage, by operation',
      labelNames: ['operation'],
      registers: [registry],
    });
    app.decorate('recordStorageError', (operation: string) => storageErrors.inc({ operation }));
    const ssoFailures = new client.Counter({
      name: 'suite_sso_failures_total',
      help: 'Single-sign-on sign-ins that ended on the error page, by protocol (or start) and reason',
      labelNames: ['protocol', 'reason'],
      registers: [registry],
    });
    app.decorate('recordSsoFailure', (protocol: string, reason: string) => ssoFailures.inc({ protocol, reason }));
    let certificates: { connection: string; domain: string; expiresAt: number }[] = [];
    app.decorate('recordSsoCertificates', (list: typeof certificates) => (certificates = list));
    new client.Gauge({
      name: 'suite_sso_certificate_expiry_seconds',
      help: "Seconds until the soonest-ending signing certificate of each SAML connection's IdP ends (negative: ended); alert under 30 days",
      labelNames: ['connection', 'domain'],
      registers: [registry],
      collect() {
        // Computed at each scrape from the ends the job read, so the value never goes stale between runs.
        this.reset();
        for (const c of certificates)
          this.set({ connection: c.connection, domain: c.domain }, Math.round((c.expiresAt - Date.now()) / 1000));
      },
    });
    const mailFailures = new client.Counter({
      name: 'suite_mail_failures_total',
      help: 'Mail delivery attempts that failed, by reason: temporary (retried), permanent (SMTP 5xx), expired (content no longer valid), gave_up (72 h)',
      labelNames: ['reason'],
      registers: [registry],
    });
    app.decorate('recordMailFailure', (reason: string) => mailFailures.inc({ reason }));

    await app.register(fastifyMetrics, {
      endpoint: null,
      promClient: client,
      clearRegisterOnInit: false,
      defaultMetrics: { enabled: true, register: registry },
      routeMetrics: {
        // A histogram per route and status; no summary (quantiles cost on every request).
        enabled: { histogram: true, summary: false },
        registeredRoutesOnly: true,
        // HEAD is counted too (the library leaves it out by default): probes often use it, and the
        // adversarial fuzz test proves from these counts that it reached every route.
        methodBlacklist: ['OPTIONS', 'TRACE', 'CONNECT'],
        overrides: { histogram: { registers: [registry] }, summary: { registers: [registry] } },
      },
    });

    const db = app.db.kysely;
    new client.Gauge({
      name: 'suite_database_up',
      help: '1 when the database answered this scrape, 0 when it did not',
      registers: [registry],
      async collect() {
        this.set((await outboxState()) ? 1 : 0);
      },
    });
    // While the database does not answer, the outbox gauges keep their last value (never NaN, which
    // alert rules compare as false); suite_database_up says the reading is old.
    new client.Gauge({
      name: 'suite_mail_outbox_pending',
      help: 'Mails queued and not yet delivered or given up (the last value read while the database is down)',
      registers: [registry],
      async collect() {
        const outbox = await outboxState();
        if (outbox) this.set(outbox.pending);
      },
    });
    new client.Gauge({
      name: 'suite_mail_outbox_oldest_age_seconds',
      help: 'Age of the oldest mail still waiting for delivery (0 when none; the last value read while the database is down)',
      registers: [registry],
      async collect() {
        const outbox = await outboxState();
        if (outbox) this.set(outbox.ageS);
      },
    });
    // The three gauges read one query per scrape; null while the database is unreachable.
    let state: Promise<{ pending: number; ageS: number } | null> | undefined;
    function outboxState() {
      state ??= outboxRepository(db)
        .pending()
        .then(
          ({ count, oldest }) => ({
            pending: count,
            ageS: oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
          }),
          (err: unknown) => {
            app.log.warn({ err }, 'metrics: database unavailable');
            return null;
          },
        )
        .finally(() => setImmediate(() => (state = undefined)));
      return state;
    }
    new client.Counter({
      name: 'suite_rate_limit_fallbacks_total',
      help: 'Times the rate limits fell back from Redis to per-instance memory',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(app.counters.fallbacks);
      },
    });
    new client.Counter({
      name: 'suite_log_lines_dropped_total',
      help: 'Log lines dropped because stdout/stderr was not read fast enough (or closed)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(droppedLogLines());
      },
    });
    new client.Gauge({
      name: 'suite_rate_limit_shared',
      help: '1 while the rate limits are counted in Redis, 0 otherwise',
      registers: [registry],
      collect() {
        this.set(app.counters.mode === 'shared' ? 1 : 0);
      },
    });

    const authorized = (header: string | undefined) => {
      if (!token) return true;
      const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
      const expected = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    };

    if (token && !port) {
      app.get(
        '/metrics',
        { schema: { hide: true }, config: { disableMetrics: true }, logLevel: 'warn' },
        async (request: FastifyRequest, reply: FastifyReply) => {
          if (!authorized(request.headers.authorization)) {
            throw new AppError('ERR_UNAUTHORIZED', { headers: { 'www-authenticate': 'Bearer' } });
          }
          return reply.type(registry.contentType).send(await registry.metrics());
        },
      );
    }

    if (port) {
      let server: Server | undefined;
      app.addHook('onReady', async () => {
        server = createServer((req, res) => {
          if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return void res.writeHead(404).end();
          if (!authorized(req.headers.authorization)) return void res.writeHead(401).end();
          registry.metrics().then(
            (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
            () => res.writeHead(500).end(),
          );
        });
        await new Promise<void>((resolve, reject) => {
          server!.once('error', reject);
          server!.listen(port, host, () => resolve());
        });
        app.log.info({ host, port }, 'metrics served on their own port');
      });
      app.addHook('onClose', async () => {
        if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      });
    }
  },
  { name: 'suite-metrics', dependencies: ['db', 'rate-limit'] },
);
