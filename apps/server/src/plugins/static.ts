import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import fp from 'fastify-plugin';
import { parse } from 'regexparam';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowingStyle } from './security.js';
import {
  API_PREFIX,
  ERRORS,
  LANGUAGES,
  WEB_PAGES,
  matchLanguage,
  paramsAllowed,
  rankAcceptLanguage,
  type Language,
  type WebPage,
} from '@suite/contract';

/** Files of the built app served from memory once read (the source maps are served from disk). */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

type Encoding = 'br' | 'gzip' | 'identity';

/** One file in every encoding the build wrote (name.br, name.gz beside it), with an ETag each. */
interface Variants {
  type: string;
  cacheControl: string;
  bodies: Partial<Record<Encoding, { body: Buffer; etag: string }>>;
  /** The encodings in `bodies`. */
  available: ReadonlySet<Encoding>;
  /** The hash of the file's own inline style (a prerendered page's fonts), which its CSP then allows. */
  ownStyle?: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The encodings an Accept-Encoding header takes, parsed once per distinct header: browsers send one of a
 * handful of values, so a small table saves the parse on almost every request. Bounded: a client
 * sending ever-new values only empties it.
 */
const acceptedCache = new Map<string, ReadonlySet<string>>();
function acceptedEncodings(header: string): ReadonlySet<string> {
  let accepted = acceptedCache.get(header);
  if (accepted) return accepted;
  const names = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name || params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) continue;
    names.add(name);
  }
  accepted = names;
  if (acceptedCache.size >= 64) acceptedCache.clear();
  acceptedCache.set(header, accepted);
  return accepted;
}

/** br when the client takes it, else gzip, else identity (q=0 refuses an encoding). */
export function pickEncoding(header: string | string[] | undefined, available: ReadonlySet<Encoding>): Encoding {
  const accepted = acceptedEncodings(String(header ?? ''));
  if (available.has('br') && (accepted.has('br') || accepted.has('*'))) return 'br';
  if (available.has('gzip') && (accepted.has('gzip') || accepted.has('*'))) return 'gzip';
  return 'identity';
}

function etagOf(body: Buffer, suffix: string): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}${suffix}"`;
}

async function readVariants(file: string, urlPath: string): Promise<Variants> {
  const body = await readFile(file);
  const base = etagOf(body, '');
  const bodies: Variants['bodies'] = { identity: { body, etag: base } };
  for (const [encoding, ext] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    const compressed = await readFile(file + ext).catch(() => undefined);
    if (compressed && compressed.length < body.length)
      bodies[encoding] = { body: compressed, etag: `${base.slice(0, -1)}-${ext.slice(1)}"` };
  }
  return {
    type: TYPES[extname(file)] ?? 'application/octet-stream',
    cacheControl: urlPath.startsWith('/assets/') ? IMMUTABLE : 'no-cache',
    bodies,
    available: new Set(Object.keys(bodies) as Encoding[]),
  };
}

/**
 * Sends one variant: Vary, ETag (304 on a matching If-None-Match), Cache-Control, Content-Encoding. A
 * 404 (the app's page for an address it has no screen for) carries no validator: a 304 would turn the
 * "not found" a cache keeps into a success.
 */
function sendVariants(
  request: FastifyRequest,
  reply: FastifyReply,
  file: Variants,
  vary = 'Accept-Encoding',
  status = 200,
): FastifyReply {
  const encoding = pickEncoding(request.headers['accept-encoding'], file.available);
  const chosen = file.bodies[encoding]!;
  void reply.header('vary', vary).header('cache-control', file.cacheControl);
  // Before the 304 too: a browser takes the headers of a 304 as the page's, its CSP included.
  const csp = reply.getHeader('content-security-policy');
  if (file.ownStyle && typeof csp === 'string')
    void reply.header('content-security-policy', allowingStyle(csp, file.ownStyle));
  if (status === 200) {
    void reply.header('etag', chosen.etag);
    const match = request.headers['if-none-match'];
    if (match && (match === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === chosen.etag)))
      return reply.code(304).send();
  }
  if (encoding !== 'identity') void reply.header('content-encoding', encoding);
  return reply.code(status).type(file.type).send(chosen.body);
}

/**
 * Whether the web app has a screen for an address: the contract's route table matched with the web
 * router's own parser (wouter's regexparam), so that the two never disagree. Anything else is the
 * app's not-found page, sent with 404.
 */
const routes = (WEB_PAGES as readonly WebPage[]).map((page) => ({ page, ...parse(page.path) }));
const isAppRoute = (path: string): boolean =>
  routes.some(({ page, keys, pattern }) => {
    const found = pattern.exec(path);
    return found !== null && paramsAllowed(page, Object.fromEntries(keys.map((key, i) => [key, found[i + 1]])));
  });

/**
 * Serves the built web app from memory: each file read once (with the .br/.gz the build wrote beside
 * it), hashed assets cached for a year, everything else (index.html, the SPA fallback for client
 * routes, legal pages) revalidated with its ETag. An entry screen's address gets its own copy of
 * index.html that also preloads the screen's code (the entry pages of the contract's route table). Unknown API
 * paths get a JSON 404; a known path with a method it does not take a JSON 405 with `Allow`.
 */
/** The language of a prerendered page, per distinct Accept-Language header (a bounded table, as above). */
const languageCache = new Map<string, Language>();
function pageLanguage(header: string | string[] | undefined): Language {
  const value = String(header ?? '');
  let language = languageCache.get(value);
  if (!language) {
    language = matchLanguage(rankAcceptLanguage(value));
    if (languageCache.size >= 64) languageCache.clear();
    languageCache.set(value, language);
  }
  return language;
}

/** An entry screen: prerendered in the client's language (Vary: Accept-Language), or the plain copy. */
function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  byLanguage: ReadonlyMap<Language, Variants>,
  plain: Variants,
): FastifyReply {
  // An address with a query (an invitation's token, a meeting link) is rendered anew by the app, not
  // hydrated (main.tsx: the markup was rendered without one): it gets the page without markup, so that
  // nothing shows that the app would then replace (a form typed into, then wiped).
  if (byLanguage.size === 0 || request.url.includes('?')) return sendVariants(request, reply, plain);
  const file = byLanguage.get(pageLanguage(request.headers['accept-language'])) ?? plain;
  return sendVariants(request, reply, file, 'Accept-Encoding, Accept-Language');
}

async function staticWeb(app: FastifyInstance, opts: { webDist: string; settings?: Record<string, unknown> }) {
  const indexFile = join(opts.webDist, 'index.html');
  const hasWeb = existsSync(indexFile);

  // The list of built files (names only; contents are read on first request and kept).
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/\.(br|gz)$/.test(entry.name)) files.set(`/${relative(opts.webDist, full).split(sep).join('/')}`, full);
    }
  };
  if (hasWeb) walk(opts.webDist);
  // Whether the shared index.html has a copy per language (then the answer varies by Accept-Language).
  const indexByLanguage = [...files.keys()].some((name) => /^\/pages\/index\.[a-z]{2}\.html$/.test(name));
  // Entry screens (the `entry` pages of the contract's route table): the build wrote each one's own copy
  // of index.html that also preloads the screen's code (dist/pages/<name>.html), and the screen
  // prerendered in each language (<name>.<lang>.html). Those are sent when the settings they were
  // rendered with (dist/prerendered.json) are this deployment's; else the plain copy.
  const prerenderedWith = files.get('/prerendered.json');
  const differing =
    prerenderedWith === undefined
      ? []
      : Object.entries(JSON.parse(readFileSync(prerenderedWith, 'utf8')) as Record<string, unknown>)
          .filter(([key, value]) => opts.settings?.[key] !== value)
          .map(([key]) => key);
  const settingsMatch = prerenderedWith !== undefined && differing.length === 0;
  // Said once at start: otherwise a setting such as APP_TITLE silently costs every entry screen its
  // prerendered markup (it then paints only once its code has run).
  if (prerenderedWith !== undefined && !settingsMatch)
    app.log.warn(
      { settings: differing },
      'entry screens are sent without their prerendered markup (they paint once their code has run): these settings differ from the defaults they were prerendered with at build (dist/prerendered.json)',
    );
  const pages: { path: string; parts: string[]; urlPath: string; file: string; languages: Map<Language, string> }[] =
    [];
  for (const page of WEB_PAGES) {
    const urlPath = `/pages/${page.name}.html`;
    const file = files.get(urlPath);
    if (!page.entry || !file) continue;
    const languages = new Map<Language, string>();
    for (const language of LANGUAGES) {
      const prerendered = files.get(`/pages/${page.name}.${language}.html`);
      if (settingsMatch && prerendered) languages.set(language, `/pages/${page.name}.${language}.html`);
    }
    pages.push({ path: page.path, parts: page.path.split('/').filter(Boolean), urlPath, file, languages });
  }
  const pageFor = (path: string) => {
    const parts = path.split('/').filter(Boolean);
    return pages.find(
      (p) => p.parts.length === parts.length && p.parts.every((seg, i) => seg.startsWith(':') || seg === parts[i]),
    );
  };
  const ownStyles = app.inlineSources.pages;
  const cache = new Map<string, Promise<Variants>>();
  const variants = (urlPath: string, file: string) => {
    let entry = cache.get(urlPath);
    if (!entry) {
      const ownStyle = ownStyles.get(urlPath);
      entry = readVariants(file, urlPath).then((read) => (ownStyle ? { ...read, ownStyle } : read));
      cache.set(urlPath, entry);
      entry.catch(() => cache.delete(urlPath));
    }
    return entry;
  };

  // The entry screens are routes of their own: answered without the not-found path or its 405 lookup.
  // Each screen's files (some 2.5 MB for all, in every language and encoding) are read on its first
  // request, not at start; from then on it is answered at once, from memory.
  // A prerendered screen comes in the language Accept-Language ranks first (the one the mails use).
  const pageVariants = async (page: (typeof pages)[number]) => {
    const byLanguage = new Map<Language, Variants>();
    for (const [language, urlPath] of page.languages)
      byLanguage.set(language, await variants(urlPath, files.get(urlPath)!));
    return { byLanguage, plain: await variants(page.urlPath, page.file) };
  };
  for (const page of pages) {
    let read: Awaited<ReturnType<typeof pageVariants>> | undefined;
    app.get(page.path, { schema: { hide: true } }, (request, reply) => {
      if (read) return sendPage(request, reply, read.byLanguage, read.plain);
      return pageVariants(page).then((all) => {
        read = all;
        return sendPage(request, reply, all.byLanguage, all.plain);
      });
    });
  }
  // A prerendered form sent before the page's code ran is the browser's own submission: the forms say
  // method="post" so that nothing typed (a password) lands in the address, and the page answers it with
  // itself (303 to the same address), the body unread. Its own scope: no other route takes form bodies.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', (_request, payload, done) => {
      payload.resume();
      done(null, undefined);
    });
    for (const page of pages)
      scope.post(page.path, { schema: { hide: true } }, (request, reply) => reply.redirect(request.url, 303));
  });

  const notFound = (reply: FastifyReply) =>
    reply.status(404).send({ error_code: 'ERR_NOT_FOUND', message: ERRORS.ERR_NOT_FOUND.message });

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? '';
    // A known path asked with a method it does not take: 405 with the methods it does (RFC 9110 §15.5.6).
    const allowed = app.allowedMethods(path);
    if (allowed.length && !allowed.includes(request.method)) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({ error_code: 'ERR_METHOD_NOT_ALLOWED', message: ERRORS.ERR_METHOD_NOT_ALLOWED.message });
    }
    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    const isGet = request.method === 'GET' || request.method === 'HEAD';
    if (isApi || !isGet || !hasWeb) return notFound(reply);
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return notFound(reply);
    }
    const file = files.get(decoded);
    if (file) {
      if (file.endsWith('.map')) {
        const cacheControl = decoded.startsWith('/assets/') ? IMMUTABLE : 'no-cache';
        return reply
          .type(TYPES['.map']!)
          .header('cache-control', cacheControl)
          .send(await readFile(file));
      }
      return sendVariants(request, reply, await variants(decoded, file));
    }
    // Room names and other route values may contain dots (/meet/team.sync): only a missing built
    // asset, or a file-like path that a browser did not ask for as a page, gets the 404.
    const isAsset = path.startsWith('/assets/');
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
    const acceptsHtml = String(request.headers.accept ?? '').includes('text/html');
    if (isAsset || (looksLikeFile && !acceptsHtml)) return notFound(reply);
    const page = pageFor(path);
    if (page) {
      const { byLanguage, plain } = await pageVariants(page);
      return sendPage(request, reply, byLanguage, plain);
    }
    const index = await variants('/index.html', indexFile);
    if (!isAppRoute(path)) return sendVariants(request, reply, index, 'Accept-Encoding', 404);
    // A Hindi visitor's copy also preloads the Devanagari faces (the build writes it): without them a first
    // visit keeps the fallback font (font-display: optional), which draws Devanagari as boxes on many systems.
    if (!indexByLanguage) return sendVariants(request, reply, index);
    const localized = `/pages/index.${pageLanguage(request.headers['accept-language'])}.html`;
    const localizedFile = files.get(localized);
    const chosen = localizedFile ? await variants(localized, localizedFile) : index;
    return sendVariants(request, reply, chosen, 'Accept-Encoding, Accept-Language');
  }

  app.setNotFoundHandler(serve);
}

export default fp(staticWeb, { name: 'static', dependencies: ['routes', 'security'] });
