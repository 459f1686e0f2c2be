import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';

const CAPTCHA_ORIGINS = ['https://www.google.com', 'https://www.gstatic.com', 'https://www.recaptcha.net'];

/** Strict headers: only our origin, plus the configured meeting domain (and reCAPTCHA when a key is set). */
export default fp(async function security(app: FastifyInstance, opts: { config: AppConfig }) {
  const { config } = opts;
  const meet = config.meet.domain ? [`${config.meet.scheme}://${config.meet.domain}`] : [];
  const captcha = config.captchaSiteKey ? CAPTCHA_ORIGINS : [];
  const reporting = config.errorReportingDsn ? [new URL(config.errorReportingDsn).origin] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...meet, ...captcha],
        // React sets inline styles through the CSSOM, which style-src does not restrict: no 'unsafe-inline'.
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...meet],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...meet, ...meet.map((o) => o.replace(/^http/, 'ws')), ...captcha, ...reporting],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        frameSrc: [...(meet.length || captcha.length ? [...meet, ...captcha] : ["'none'"])],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: config.publicUrl.startsWith('https:') ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: config.publicUrl.startsWith('https:')
      ? { maxAge: 31536000, includeSubDomains: true }
      : false,
    xFrameOptions: { action: 'sameorigin' },
  });
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('permissions-policy', 'camera=(self), microphone=(self), display-capture=(self), geolocation=()');
  });
});
