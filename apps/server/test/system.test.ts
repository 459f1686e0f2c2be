import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { createTestApp, type TestApp } from './helpers.js';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';

describe('system', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('reports health with the database reachable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', redis: 'not_configured', storage: 'ok' });
  });

  it('answers unknown API paths with a JSON 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error_code: 'ERR_NOT_FOUND', message: 'Not found.' });
  });

  it('answers malformed JSON with a 400 error body, never a stack trace', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/user',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().error_code).toMatch(/^ERR_/);
    expect(res.body).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it("sends the pages' strict security headers, and the API's own set on its answers", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/user/login', headers: { accept: 'text/html' } });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).toMatch(/style-src 'self'( 'sha256-[\w+/]+=')*;/);
    expect(csp).not.toContain('https:');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['permissions-policy']).toContain('geolocation=()');

    // JSON is never a page: it loads nothing, may not be framed, and is not readable cross-origin.
    for (const url of ['/api/config', '/api/health', '/api/v2/user/me', '/api/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['referrer-policy'], url).toBeUndefined();
    }
    // Answers with tokens or personal data are never stored by a cache.
    for (const url of ['/api/v2/user/me', '/api/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('sends Strict-Transport-Security on pages and API answers when served over HTTPS', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://suite.example.com' });
    try {
      for (const url of ['/user/login', '/api/config']) {
        const res = await secure.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      }
    } finally {
      await secure.close();
    }
  });

  it('gives the web app its runtime settings', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    const body = res.json();
    expect(body.mainAppUrl).toBe('http://localhost:8080/app');
    expect(body.meetDomain).toBeNull();
    expect(Object.keys(body.termsUrls).sort()).toEqual(['en', 'es', 'hi', 'it', 'pt']);
  });

  it('serves an OpenAPI document and its viewer, whose assets resolve under /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    const assets = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      expect(asset.startsWith('/api/docs/static/'), asset).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: asset })).statusCode, asset).toBe(200);
    }
  });

  it("the viewer's pages alone allow inline styles (its bundle sets them); scripts stay 'self' everywhere", async () => {
    const csp = async (url: string) =>
      String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);
    const docs = await csp('/api/docs');
    expect(docs).toContain("style-src 'self' 'unsafe-inline'");
    expect(docs).toContain("script-src 'self'");
    expect(docs).not.toMatch(/script-src[^;]*unsafe/);
    expect(await csp('/user/login')).not.toContain('unsafe');
    for (const url of ['/api/health', '/api/config']) expect(await csp(url), url).not.toContain('unsafe');
  });
});

describe('API docs switch (API_DOCS)', () => {
  it('off in production: /api/docs and its document answer the catalogue 404', async () => {
    const prod = await createTestApp({ NODE_ENV: 'production' });
    try {
      expect(prod.config.apiDocs).toBe(false);
      for (const url of ['/api/docs', '/api/docs/json', '/api/docs/static/swagger-ui.css']) {
        const res = await prod.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ error_code: 'ERR_NOT_FOUND', message: 'Not found.' });
      }
    } finally {
      await prod.close();
    }
  });

  it('on in production with API_DOCS=true, off elsewhere with API_DOCS=false', async () => {
    const on = await createTestApp({ NODE_ENV: 'production', API_DOCS: 'true' });
    try {
      expect((await on.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    } finally {
      await on.close();
    }
    const off = await createTestApp({ API_DOCS: 'false' });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('configuration', () => {
  it('lists every wrong value at once', () => {
    try {
      loadConfig({ PORT: 'abc', PUBLIC_URL: 'ftp://x', SESSION_SECRET: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('PORT');
      expect(problems).toContain('PUBLIC_URL');
      expect(problems).toContain('SESSION_SECRET');
    }
  });

  it('reports rules between variables together with the wrong values', () => {
    try {
      loadConfig({ PORT: 'abc', JITSI_APP_ID: 'suite', JAAS_APP_ID: 'vpaas-magic-cookie-1' });
      expect.unreachable();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('PORT');
      expect(problems).toContain('JITSI_APP_SECRET: required with JITSI_APP_ID');
      expect(problems).toContain('JAAS_KID, JAAS_PRIVATE_KEY: required with JAAS_APP_ID');
    }
  });

  it("adds the meeting domain to the pages' CSP when configured", async () => {
    const t = await createTestApp({ MEET_DOMAIN: 'meet.example.com' });
    const res = await t.app.inject({ method: 'GET', url: '/meet/room-1', headers: { accept: 'text/html' } });
    expect(String(res.headers['content-security-policy'])).toContain('https://meet.example.com');
    await t.close();
  });
});

/**
 * A built web app with the /guest entry screen prerendered in `languages` (data-lang tells which was
 * sent), its plain copy ("plain"), and the settings it was prerendered with (the test app's own).
 */
function prerenderedGuestDist(
  t: Awaited<ReturnType<typeof createTestApp>>,
  languages = ['en', 'pt', 'es', 'hi', 'it'],
) {
  const dist = join(t.dataDir, 'web');
  mkdirSync(join(dist, 'pages'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'pages', 'guest.html'), '<!doctype html><div id="root"></div>plain');
  for (const lang of languages)
    writeFileSync(
      join(dist, 'pages', `guest.${lang}.html`),
      `<!doctype html><div id="root" data-lang="${lang}"></div>`,
    );
  writeFileSync(
    join(dist, 'prerendered.json'),
    JSON.stringify({ appTitle: t.config.appTitle, hideHeader: false, hideFooter: false, publicSignup: true }),
  );
  return dist;
}

describe('web app serving', () => {
  it('serves index.html for client routes and caches hashed assets for a year', async () => {
    const t = await createTestApp();
    const dist = join(t.dataDir, 'web');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    const page = await app.inject({ method: 'GET', url: '/user/login' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: 'text/html' } });
    expect(missing.statusCode).toBe(404);
    const dotted = await app.inject({ method: 'GET', url: '/meet/team.sync', headers: { accept: 'text/html,*/*' } });
    expect(dotted.statusCode).toBe(200);
    expect(dotted.body).toContain('<div id="root">');
    const stray = await app.inject({ method: 'GET', url: '/favicon-old.png', headers: { accept: 'image/*' } });
    expect(stray.statusCode).toBe(404);
    await app.close();
    await t.close();
  });

  it("sends a Hindi visitor of the app's other screens the copy that preloads the Devanagari faces", async () => {
    const t = await createTestApp();
    const dist = join(t.dataDir, 'web');
    mkdirSync(join(dist, 'pages'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(
      join(dist, 'pages', 'index.hi.html'),
      '<!doctype html><link rel="preload" href="/d.woff2"><div id="root"></div>',
    );
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    const get = (url: string, language: string) =>
      app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-language': language } });
    try {
      for (const url of ['/app', '/app/security', '/meet/room-1']) {
        const hindi = await get(url, 'hi-IN,hi;q=0.9,en;q=0.5');
        expect(hindi.statusCode, url).toBe(200);
        expect(hindi.body, url).toContain('/d.woff2');
        expect(hindi.headers.vary, url).toContain('Accept-Language');
        const english = await get(url, 'en-GB');
        expect(english.body, url).not.toContain('/d.woff2');
        expect(english.headers.vary, url).toContain('Accept-Language');
      }
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('answers an address the app has no screen for with 404 and the app (its not-found page); its screens with 200', async () => {
    const t = await createTestApp();
    const dist = join(t.dataDir, 'web');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    const get = (url: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
    try {
      for (const url of ['/no-such-page', '/user/no-such-form', '/meet', '/meet/a/b', '/app/admin/x/y', '/files']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toContain('text/html');
        expect(res.body, url).toContain('<div id="root">');
        // Never a validator on it: a revalidation must not turn the cached "not found" into a success.
        expect(res.headers.etag, url).toBeUndefined();
      }
      expect((await get('/no-such-page', { 'if-none-match': '*' })).statusCode).toBe(404);
      for (const url of [
        '/',
        '/app',
        '/app/',
        '/app/admin/sso',
        '/meet/team.sync',
        '/meet/room-1?jwt=x',
        '/user/login',
        '/guest',
        '/confirm-invite?token=x',
        '/file/abc/download_link',
        '/help/third-party-cookies',
      ])
        expect((await get(url)).statusCode, url).toBe(200);
      // The API's own 404 stays JSON.
      const api = await get('/api/v2/no-such-thing');
      expect(api.statusCode).toBe(404);
      expect(api.json().error_code).toBe('ERR_NOT_FOUND');
    } finally {
      await app.close();
      await t.close();
    }
  });

  it("allows inline only what the build lists: the prerendered screens' styles and script, by hash", async () => {
    const t = await createTestApp();
    const dist = join(t.dataDir, 'web');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const style = hash('.a{color:red}');
    const script = hash('import("/assets/app.js")');
    // A list that also names a keyword or garbage: only well-formed hashes are taken.
    writeFileSync(
      join(dist, 'inline-sources.json'),
      JSON.stringify({ script: [script, "'unsafe-inline'"], style: [style, 'https://evil.example'] }),
    );
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    const csp = async (server: typeof app) =>
      String((await server.inject({ method: 'GET', url: '/guest' })).headers['content-security-policy']);
    try {
      const directives = (await csp(app)).split(';');
      expect(directives).toContain(`script-src 'self' ${script}`);
      expect(directives).toContain(`style-src 'self' ${style}`);
      expect(await csp(app)).not.toMatch(/unsafe|evil/);
      // Without the list (or no web build at all): 'self' alone.
      expect((await csp(t.app)).split(';')).toContain("style-src 'self'");
      expect((await csp(t.app)).split(';')).toContain("script-src 'self'");
    } finally {
      await app.close();
      await t.close();
    }
  });

  it("allows a prerendered page's own style (its first frame's fonts) in that page's answer only", async () => {
    const t = await createTestApp();
    const dist = prerenderedGuestDist(t);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const shared = hash('.a{color:red}');
    const enFonts = hash('@font-face{font-family:Poppins;src:url(data:font/woff2;base64,AAAA)}');
    const ptFonts = hash('@font-face{font-family:Poppins;src:url(data:font/woff2;base64,BBBB)}');
    writeFileSync(
      join(dist, 'inline-sources.json'),
      JSON.stringify({
        script: [],
        style: [shared],
        // A value that is not a hash is not taken.
        pages: {
          '/pages/guest.en.html': enFonts,
          '/pages/guest.pt.html': ptFonts,
          '/pages/guest.it.html': "'unsafe-inline'",
        },
      }),
    );
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    const styleSrc = async (url: string, language = 'en') => {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-language': language } });
      return String(res.headers['content-security-policy'])
        .split(';')
        .find((d) => d.startsWith('style-src '));
    };
    try {
      expect(await styleSrc('/guest')).toBe(`style-src ${enFonts} 'self' ${shared}`);
      expect(await styleSrc('/guest', 'pt')).toBe(`style-src ${ptFonts} 'self' ${shared}`);
      // Another language's page, a page without markup, the app's shell: the shared styles only.
      expect(await styleSrc('/guest', 'it')).toBe(`style-src 'self' ${shared}`);
      expect(await styleSrc('/guest?meeting=abc')).toBe(`style-src 'self' ${shared}`);
      expect(await styleSrc('/app')).toBe(`style-src 'self' ${shared}`);
      // A revisit answered 304 carries the same policy: the browser takes it as the page's.
      const res = await app.inject({ method: 'GET', url: '/guest' });
      const revisit = await app.inject({
        method: 'GET',
        url: '/guest',
        headers: { 'if-none-match': res.headers.etag },
      });
      expect(revisit.statusCode).toBe(304);
      expect(revisit.headers['content-security-policy']).toBe(res.headers['content-security-policy']);
      // The fonts come from the page itself: font-src allows data: and nothing wider.
      expect(String(res.headers['content-security-policy']).split(';')).toContain("font-src 'self' data:");
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('a prerendered entry screen comes in the language Accept-Language ranks first, unless the settings differ', async () => {
    const t = await createTestApp();
    const dist = prerenderedGuestDist(t);
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    const other = await buildApp({ ...t.config, webDist: dist, hideHeader: true }, { logger: false });
    try {
      const pt = await app.inject({
        method: 'GET',
        url: '/guest',
        headers: { 'accept-language': 'de-DE, pt-BR;q=0.9' },
      });
      expect(pt.body).toContain('data-lang="pt"');
      expect(pt.headers.vary).toBe('Accept-Encoding, Accept-Language');
      const ranked = await app.inject({ method: 'GET', url: '/guest', headers: { 'accept-language': 'it;q=0.5, hi' } });
      expect(ranked.body).toContain('data-lang="hi"');
      expect((await app.inject({ method: 'GET', url: '/guest' })).body).toContain('data-lang="en"');
      expect((await app.inject({ method: 'GET', url: '/guest/' })).body).toContain('data-lang="en"');
      // With a query the app renders the screen anew: the page comes without the markup.
      expect((await app.inject({ method: 'GET', url: '/guest?vc_link=x' })).body).toContain('plain');
      // The browser's own submission of a form sent before the code ran: back to the page, body unread.
      const sent = await app.inject({
        method: 'POST',
        url: '/guest?meeting=abc',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=Ada&terms=on',
      });
      expect(sent.statusCode).toBe(303);
      expect(sent.headers.location).toBe('/guest?meeting=abc');
      // Form bodies are taken there only: the API still refuses them.
      const api = await app.inject({
        method: 'POST',
        url: '/api/v2/user',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=ada%40contoso.com',
      });
      expect(api.statusCode).toBe(415);
      // A deployment whose settings change what the screens show gets the page without the markup.
      expect(
        (await other.inject({ method: 'GET', url: '/guest', headers: { 'accept-language': 'pt' } })).body,
      ).toContain('plain');
    } finally {
      await app.close();
      await other.close();
      await t.close();
    }
  });

  it('says at start which settings keep the prerendered screens from being sent (APP_TITLE)', async () => {
    const t = await createTestApp();
    const dist = prerenderedGuestDist(t, ['en']);
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const same = await buildApp({ ...t.config, webDist: dist, logLevel: 'info' }, { logger: { stream } });
    await same.close();
    expect(lines.filter((l) => l.includes('prerendered'))).toEqual([]);
    const app = await buildApp(
      { ...t.config, webDist: dist, appTitle: 'Acme Mail', logLevel: 'info' },
      { logger: { stream } },
    );
    try {
      const warning = lines.map((l) => JSON.parse(l) as { level: number; msg: string; settings?: string[] });
      expect(warning.filter((l) => l.msg.includes('prerendered'))).toEqual([
        expect.objectContaining({ level: 40, settings: ['appTitle'] }),
      ]);
      expect((await app.inject({ method: 'GET', url: '/guest' })).body).toContain('plain');
    } finally {
      await app.close();
      await t.close();
    }
  });

  it("an entry screen's address gets its own page (in every encoding built), other methods a 405", async () => {
    const t = await createTestApp();
    const dist = join(t.dataDir, 'web');
    mkdirSync(join(dist, 'pages'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const loginPage = `<!doctype html><link rel="modulepreload" href="/assets/login.js">${' '.repeat(200)}`;
    writeFileSync(join(dist, 'pages', 'user-login.html'), loginPage);
    writeFileSync(join(dist, 'pages', 'user-login.html.br'), brotliCompressSync(loginPage));
    writeFileSync(join(dist, 'pages', 'fileDownload.html'), loginPage);
    const app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
    try {
      const br = await app.inject({
        method: 'GET',
        url: '/user/login?next=/app',
        headers: { 'accept-encoding': 'br' },
      });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(loginPage);
      const plain = await app.inject({ method: 'GET', url: '/user/login', headers: { 'accept-encoding': 'br;q=0' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(loginPage);
      expect(plain.headers.etag).not.toBe(br.headers.etag);
      // Revalidation, a parameter in the address, HEAD, and the trailing-slash form.
      const again = await app.inject({
        method: 'GET',
        url: '/user/login',
        headers: { 'if-none-match': plain.headers.etag },
      });
      expect(again.statusCode).toBe(304);
      expect((await app.inject({ method: 'GET', url: '/file/42/download_link' })).body).toBe(loginPage);
      const head = await app.inject({ method: 'HEAD', url: '/user/login' });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect((await app.inject({ method: 'GET', url: '/user/login/' })).body).toBe(loginPage);
      // A form sent before the page's code ran comes back to the page; no other method is taken.
      const post = await app.inject({ method: 'POST', url: '/user/login', payload: {} });
      expect(post.statusCode).toBe(303);
      const put = await app.inject({ method: 'PUT', url: '/user/login', payload: {} });
      expect(put.statusCode).toBe(405);
      expect(put.headers.allow).toBe('GET, HEAD, POST');
      expect(put.json().error_code).toBe('ERR_METHOD_NOT_ALLOWED');
    } finally {
      await app.close();
      await t.close();
    }
  });
});
