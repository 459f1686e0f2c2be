import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';

const CAPTCHA_ORIGINS = ['https://www.google.com', 'https://www.gstatic.com', 'https://www.recaptcha.net'];

/**
 * The security headers of every answer, computed once from the settings: only our origin, plus the
 * configured meeting domain (and reCAPTCHA when a key is set, the error-reporting origin when set).
 * The same set helmet's defaults give (COEP off, CORP same-origin), without its per-request work.
 */
export function securityHeaders(config: AppConfig): Record<string, string> {
  const meet = config.meet.domain ? [`${config.meet.scheme}://${config.meet.domain}`] : [];
  const captcha = config.captchaSiteKey ? CAPTCHA_ORIGINS : [];
  const reporting = config.errorReportingDsn ? [new URL(config.errorReportingDsn).origin] : [];
  const https = config.publicUrl.startsWith('https:');
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...meet, ...captcha]],
    // React sets inline styles through the CSSOM, which style-src does not restrict: no 'unsafe-inline'.
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'data:', 'blob:', ...meet]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...meet, ...meet.map((o) => o.replace(/^http/, 'ws')), ...captcha, ...reporting]],
    ['media-src', ["'self'", 'blob:', 'mediastream:']],
    ['frame-src', meet.length || captcha.length ? [...meet, ...captcha] : ["'none'"]],
    ['worker-src', ["'self'", 'blob:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'self'"]],
    ...(https ? [['upgrade-insecure-requests', []] as [string, string[]]] : []),
  ];
  return {
    'content-security-policy': directives.map(([name, values]) => [name, ...values].join(' ')).join(';'),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
    'permissions-policy': 'camera=(self), microphone=(self), display-capture=(self), geolocation=()',
  };
}

/** Sets the precomputed headers on every request (a route may still override one, e.g. downloads' CSP). */
export default fp(async function security(app: FastifyInstance, opts: { config: AppConfig }) {
  const headers = securityHeaders(opts.config);
  const names = Object.keys(headers);
  const values = Object.values(headers);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (let i = 0; i < names.length; i++) raw.setHeader(names[i]!, values[i]!);
    done();
  });
});
