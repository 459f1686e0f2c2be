import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { API, API_PREFIX } from '@suite/contract';
import type { AppConfig } from './config.js';
import authPlugin from './plugins/auth.js';
import captchaPlugin from './plugins/captcha.js';
import compressPlugin from './plugins/compress.js';
import dbPlugin from './plugins/db.js';
import errorsPlugin, { clientErrorHandler, frameworkErrors } from './plugins/errors.js';
import mailerPlugin from './plugins/mailer.js';
import metricsPlugin from './plugins/metrics.js';
import presencePlugin from './plugins/presence.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import routesPlugin from './plugins/routes.js';
import throttlePlugin from './plugins/throttle.js';
import securityPlugin from './plugins/security.js';
import staticPlugin from './plugins/static.js';
import storagePlugin from './plugins/storage.js';
import jobsPlugin from './jobs/index.js';
import { apiModules } from './modules/index.js';
import emailAssets from './emails/assets.js';
import { accessLog, errSerializer, lazyChildLogger, processLogDestination, reqSerializer } from './logging.js';

export interface BuildOptions {
  /** Extra pino options (tests pass a stream to read log lines). */
  logger?: Record<string, unknown> | false;
}

/** Builds the whole server: used by server.ts and by the tests through app.inject. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Secrets are kept out by the serializers (no `redact` paths: they cost on every line).
            serializers: { req: reqSerializer, err: errSerializer },
            ...options.logger,
            // Never blocks: a bounded buffer that drops (and counts) lines when stdout is not read.
            stream:
              (options.logger?.stream as { write(line: string): void } | undefined) ??
              processLogDestination(config.logBufferChars),
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(given) ? given : randomUUID();
    },
    // At most one line per request (ACCESS_LOG, written when it completes, below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A request's own logger is made only if it logs (most write only the access line, above).
    childLoggerFactory: lazyChildLogger,
    trustProxy: config.trustProxy,
    // Fastify leaves these at 0 (none): a body could trickle forever and hold its connection.
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      // How often Node checks the two above (its default, 30 s, would let a trickle run that much longer).
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, config.http.headersTimeoutMs / 4)),
    },
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 200 },
    // Errors raised before routing, in the catalogue shape too (Fastify's own bodies echo the URL).
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  if (config.accessLog) app.addHook('onResponse', accessLog(app.log));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);

  await app.register(errorsPlugin);
  // Before any route: it keeps the route table (405 answers, the fuzz test's route list).
  // The one cookie parser and writer (request.cookies, reply.setCookie); values we sign carry our own MAC.
  await app.register(cookie);
  await app.register(routesPlugin);
  await app.register(securityPlugin, { config });
  await app.register(compressPlugin);
  await app.register(dbPlugin, { dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await app.register(authPlugin, { keys: config.keys.session, ttlSeconds: config.sessionTtlSeconds });
  await app.register(mailerPlugin, { config });
  await app.register(storagePlugin, { dataDir: config.dataDir, s3: config.s3 });
  await app.register(rateLimitPlugin, { scale: config.rateLimitScale, redisUrl: config.redisUrl });
  await app.register(presencePlugin, { redisUrl: config.redisUrl });
  await app.register(captchaPlugin, { config });
  await app.register(throttlePlugin, {
    scale: config.rateLimitScale,
    deviceKeys: config.keys.device,
    secureCookie: config.publicUrl.startsWith('https:'),
  });
  await app.register(metricsPlugin, { config });

  if (config.apiDocs) await registerApiDocs(app, config);
  await app.register(
    async (api) => {
      for (const module of apiModules) await api.register(module, { config });
    },
    { prefix: API_PREFIX },
  );

  await app.register(emailAssets);
  await app.register(staticPlugin, {
    webDist: config.webDist,
    // What the prerendered entry screens show that comes from the settings (dist/prerendered.json).
    settings: {
      appTitle: config.appTitle,
      hideHeader: config.hideHeader,
      hideFooter: config.hideFooter,
      publicSignup: config.publicSignup,
    },
  });
  // Registered after the plugins it uses, so that on close it stops before they do.
  await app.register(jobsPlugin);
  return app;
}

/**
 * The OpenAPI document and its viewer at /api/docs (API_DOCS; off in production by default: it maps
 * the whole attack surface). The viewer's bundle sets inline styles, which our CSP forbids: its pages
 * alone get 'unsafe-inline' for styles (scripts stay 'self'; the page shows no user content).
 */
async function registerApiDocs(app: FastifyInstance, config: AppConfig): Promise<void> {
  // Loaded only when the docs are on: a production server without them never reads these modules.
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.appTitle} API`, version: '1.0.0' },
      servers: [{ url: API_PREFIX }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });

  // Registered with its full path (not inside the /api prefix): swagger-ui builds its asset links from
  // routePrefix, and /api/docs without a trailing slash otherwise links to /docs/static/….
  await app.register(swaggerUi, {
    routePrefix: `${API_PREFIX}${API.docs}`,
    uiConfig: { validatorUrl: null },
    // Whole directive replaced: beside the pages' hashes, 'unsafe-inline' would be ignored.
    transformStaticCSP: (header) => header.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
  }
}
