// First-load JS+CSS (and the JSON text catalogs) of the entry screens as Chromium transfers them (fresh profile, compressed as
// served; fonts inlined in a page's HTML reported apart), against the React floor (bench/floor, built by the project's Vite in this run, compressed
// the same way). Writes what each page loaded to bench/out/first-load.md.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { benchDir, fmt, out, startOurs } from './lib.mjs';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Builds the floor and returns its JS+CSS bytes: raw, gzip -9 and brotli q11. */
async function floor() {
  const { build } = await import('vite');
  const outDir = join(out, 'floor');
  await build({
    root: join(benchDir, 'floor'),
    logLevel: 'warn',
    configFile: false,
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  const sizes = { identity: 0, gzip: 0, br: 0, files: 0 };
  for (const f of readdirSync(join(outDir, 'assets'))) {
    if (!/\.(js|css)$/.test(f)) continue;
    const body = readFileSync(join(outDir, 'assets', f));
    sizes.files++;
    sizes.identity += body.length;
    sizes.gzip += gzipSync(body, { level: 9 }).length;
    sizes.br += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return sizes;
}

// Every entry screen (the route table's entry pages), each within 1.4x the floor.
const PAGES = [
  ...['login', 'signup', 'recovery-password', 'check-token', 'check-token-recovery', 'welcome', 'update-password'].map(
    (form) => ({ path: `/user/${form}`, budget: 1.4 }),
  ),
  { path: '/guest', budget: 1.4 },
  { path: '/confirm-invite', budget: 1.4 },
  { path: '/file/0123456789abcdef01234567/download_link', budget: 1.4, name: 'download page' },
  { path: '/supported-browser', budget: 1.4 },
  { path: '/login-error-sso', budget: 1.4 },
  { path: '/clear', budget: 1.4 },
];

export default async function bundleRows() {
  const base = await floor();
  const { chromium } = await import('playwright-core');
  const ours = await startOurs();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const rows = [];
  const report = ['# First load of the entry screens (JS+CSS as transferred)', ''];
  report.push(
    `React floor: ${base.files} files, ${fmt.kib(base.identity)} raw, ${fmt.kib(base.gzip)} gzip, ${fmt.kib(base.br)} br`,
    '',
  );
  try {
    for (const page of PAGES) {
      const context = await browser.newContext({ locale: 'en-US' });
      const tab = await context.newPage();
      // What the screen needs to work: every JS/CSS/JSON (the text catalogs) request the page started before the app had rendered
      // or hydrated it (<html data-hydrated>; the heading itself is in the prerendered HTML; later idle
      // prefetches of likely next screens are not counted), with the encoded body size Chromium received
      // (Resource Timing; headers not counted) and the Content-Encoding served.
      await tab.addInitScript(() => {
        new MutationObserver((_m, observer) => {
          if (document.documentElement.hasAttribute('data-hydrated')) {
            window.__headingAt = performance.now();
            observer.disconnect();
          }
        }).observe(document, { attributes: true, subtree: true });
      });
      const served = new Map();
      tab.on('response', (response) => {
        // A late answer (an idle prefetch) may arrive as the context closes: it is not counted anyway.
        response.headerValue('content-encoding').then(
          (encoding) => served.set(new URL(response.url()).pathname, encoding ?? 'identity'),
          () => {},
        );
      });
      const answer = await tab.goto(`${ours.base}${page.path}`, { waitUntil: 'load' });
      const html = await answer.text();
      await tab.waitForFunction(() => window.__headingAt !== undefined, null, { timeout: 30_000 });
      const loaded = await tab.evaluate(async () => {
        const wanted = () =>
          performance
            .getEntriesByType('resource')
            .filter((e) => /\.(m?js|css|json)$/.test(new URL(e.name).pathname) && e.startTime <= window.__headingAt);
        for (let i = 0; i < 100 && wanted().some((e) => e.responseEnd === 0); i++)
          await new Promise((r) => setTimeout(r, 50));
        return wanted().map((e) => ({ path: new URL(e.name).pathname, bytes: e.encodedBodySize }));
      });
      for (const r of loaded) r.encoding = served.get(r.path) ?? 'identity';
      await context.close();
      // A prerendered page carries its stylesheets and boot script inline: counted like the files they
      // replace (their text compressed on its own, in the encoding the files came in). Its first frame's
      // fonts come inline too (a <style> of @font-face rules with data: URLs, build/first-frame-fonts.mjs):
      // fonts, not CSS, reported beside the figure and not counted in it (the font files never were).
      const br = loaded.some((r) => r.encoding === 'br');
      const packed = (text) =>
        (br
          ? brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
          : gzipSync(text, { level: 9 })
        ).length;
      const inlined = [...html.matchAll(/<(style|script)\b[^>]*>([^<]+)<\/\1>/g)].map((m) => m[2]);
      const isFonts = (text) => text.startsWith('@font-face') && text.includes('url(data:font/');
      const inline = inlined.filter((text) => !isFonts(text)).join('\n');
      const fonts = inlined.filter(isFonts).join('\n');
      if (inline)
        loaded.push({
          path: `${page.path} (inline <style>/<script>)`,
          bytes: packed(inline),
          encoding: br ? 'br' : 'gzip',
        });
      const fontBytes = fonts ? packed(fonts) : 0;
      const bytes = loaded.reduce((s, r) => s + r.bytes, 0);
      const encodings = new Set(loaded.map((r) => r.encoding));
      // Compared with the floor in the same encoding (identity compared with gzip, as the issue did).
      const enc = encodings.has('br') ? 'br' : 'gzip';
      const ratio = bytes / base[enc];
      rows.push({
        figure: `${page.name ?? page.path} first load, JS+CSS transferred vs React floor (${enc})`,
        budget: `≤ ${page.budget}×`,
        measured: `${fmt.ratio(ratio)} (${fmt.kib(bytes)} in ${loaded.length} files [${[...encodings].join(', ')}] vs ${fmt.kib(base[enc])})${fontBytes ? `; fonts inline in the HTML ${fmt.kib(fontBytes)} ${enc}, not counted` : ''}`,
        pass: ratio <= page.budget,
      });
      report.push(`## ${page.path}`, '', '| file | bytes | encoding |', '|---|---|---|');
      for (const r of loaded.sort((a, b) => b.bytes - a.bytes))
        report.push(`| ${r.path} | ${r.bytes} | ${r.encoding} |`);
      if (fontBytes) report.push(`| ${page.path} (inline fonts, not counted) | ${fontBytes} | ${enc} |`);
      report.push('');
    }
  } finally {
    await browser.close();
    await ours.close();
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'first-load.md'), `${report.join('\n')}\n`);
  return rows;
}
