import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API, API_PREFIX } from '@suite/contract';
import type { AppConfig } from '../config.js';

const HSTS = 'max-age=31536000; includeSubDomains';
const CAPTCHA_ORIGINS = ['https://www.google.com', 'https://www.gstatic.com', 'https://www.recaptcha.net'];

/**
 * The inline script and styles of the prerendered entry screens, by hash ('sha256-…'), as the build
 * lists them in dist/inline-sources.json: the only inline code the pages' CSP allows. `pages`: the one
 * style of a prerendered file's own (the fonts its first frame draws, cut to its text), allowed in that
 * file's answer only (one per file: listed for every page, they would cost each answer some 3.5 KB of
 * header).
 */
export interface InlineSources {
  script: string[];
  style: string[];
  pages: ReadonlyMap<string, string>;
}

const HASH = /^'sha256-[A-Za-z0-9+/]{43}='$/;

/** The build's list of inline sources (none when the web app is not built or the list is not valid). */
function readInlineSources(webDist: string): InlineSources {
  try {
    const list = JSON.parse(readFileSync(join(webDist, 'inline-sources.json'), 'utf8')) as Record<string, unknown>;
    const hashes = (values: unknown) =>
      Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string' && HASH.test(v)) : [];
    const pages = typeof list.pages === 'object' && list.pages !== null ? Object.entries(list.pages) : [];
    return {
      script: hashes(list.script),
      style: hashes(list.style),
      pages: new Map(pages.filter((e): e is [string, string] => typeof e[1] === 'string' && HASH.test(e[1]))),
    };
  } catch {
    return { script: [], style: [], pages: new Map() };
  }
}

/** A page's Content-Security-Policy that also allows one inline style of its own (by its hash). */
export function allowingStyle(csp: string, hash: string): string {
  return csp.replace(/(^|;)style-src /, `$1style-src ${hash} `);
}

/**
 * The security headers of the pages (everything outside /api, and the API viewer at /api/docs),
 * computed once from the settings: only our origin, plus the configured meeting domain (and reCAPTCHA
 * when a key is set, the error-reporting origin when set). The set helmet's defaults give (COEP off,
 * CORP same-origin) without its per-request work, less the headers no supported browser reads any more
 * (X-XSS-Protection, X-Download-Options; X-DNS-Prefetch-Control: the pages link to no user content).
 */
function securityHeaders(config: AppConfig, inline: InlineSources): Record<string, string> {
  const meet = config.meet.domain ? [`${config.meet.scheme}://${config.meet.domain}`] : [];
  const captcha = config.captchaSiteKey ? CAPTCHA_ORIGINS : [];
  const reporting = config.errorReportingDsn ? [new URL(config.errorReportingDsn).origin] : [];
  const https = config.publicUrl.startsWith('https:');
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...inline.script, ...meet, ...captcha]],
    // React sets inline styles through the CSSOM, which style-src does not restrict: no 'unsafe-inline'.
    ['style-src', ["'self'", ...inline.style]],
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
    ...(https ? { 'strict-transport-security': HSTS } : {}),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'permissions-policy': 'camera=(self), microphone=(self), display-capture=(self), geolocation=()',
  };
}

/**
 * The security headers of the API's answers (JSON, file downloads): what OWASP's REST guidance asks of
 * an API. A JSON answer is never a page: it loads nothing, may not be framed, and is not readable
 * cross-origin; the document-only headers (COOP, Referrer-Policy, Permissions-Policy, …) would be
 * bytes and work on every call for nothing. A route may still override one (downloads' sandbox CSP).
 */
function apiSecurityHeaders(config: AppConfig): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    ...(config.publicUrl.startsWith('https:') ? { 'strict-transport-security': HSTS } : {}),
    'x-content-type-options': 'nosniff',
    // Answers carry tokens and personal data: no cache (browser, proxy, back button) keeps them. A
    // route that may be cached says so itself (downloads, the health check, public assets).
    'cache-control': 'no-store',
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The build's inline sources, read once at start: the static pages add each page's own style hash. */
    inlineSources: InlineSources;
  }
}

/** Sets the precomputed headers on every request: the API's set under /api (but its viewer), else the pages'. */
async function security(app: FastifyInstance, opts: { config: AppConfig }) {
  const inline = readInlineSources(opts.config.webDist);
  app.decorate('inlineSources', inline);
  const pages = Object.entries(securityHeaders(opts.config, inline));
  const api = Object.entries(apiSecurityHeaders(opts.config));
  const docs = `${API_PREFIX}${API.docs}`;
  const isApi = (url: string) => url.startsWith(`${API_PREFIX}/`) && !url.startsWith(docs);
  app.addHook('onRequest', (request, reply, done) => {
    const headers = isApi(request.url) ? api : pages;
    const raw = reply.raw;
    for (let i = 0; i < headers.length; i++) raw.setHeader(headers[i]![0], headers[i]![1]);
    done();
  });
}

export default fp(security, { name: 'security' });
