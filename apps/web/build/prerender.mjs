// The build's last step (npm run build -w apps/web): every entry screen of the route table prerendered
// in each language. Imports the server-side bundle of src/prerender.tsx (vite build --ssr) in a
// happy-dom window at the page's address, renders it, and writes dist/pages/<name>.<lang>.html (the
// page's own index.html copy with the markup in #root, `lang` set, the address it was rendered for in
// data-path) with its .br and .gz beside it, and dist/prerendered.json: the settings it was rendered
// with, which the server compares with its own before it sends these pages.
//
// A prerendered page paints from its HTML alone: its stylesheets are inlined, and so are the Poppins
// glyphs its first frame draws (build/first-frame-fonts.mjs; a Hindi page preloads its Devanagari faces).
// Its scripts and text catalogs are fetched right after that frame by a small inline script
// (BOOT_SCRIPT) that also holds a form sent before they have run. dist/inline-sources.json lists the
// hashes of those inline styles and that script, which the server adds to its Content-Security-Policy,
// and of each page's own fonts style, which it adds to that page's answer only (nothing else inline is
// allowed).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Window } from 'happy-dom';
import { drawnText, firstFrameFonts } from './first-frame-fonts.mjs';

const web = fileURLToPath(new URL('..', import.meta.url));
const dist = join(web, 'dist');
const ssr = join(web, 'node_modules', '.prerender');

const window = new Window({ url: 'http://localhost/' });
for (const name of ['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage'])
  Object.defineProperty(globalThis, name, { value: window[name], configurable: true, writable: true });

const { render, LANGUAGES, LANGUAGE_TAGS, WEB_PAGES, PRERENDER_CONFIG, PRERENDER_KEYS } = await import(
  pathToFileURL(join(ssr, 'prerender.js')).href
);

const escape = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const write = (file, body) => {
  writeFileSync(file, body);
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
};

// The compiled text catalogs of the build, by namespace and language (lib/i18n.ts fetches the same files).
const catalogs = new Map(
  readdirSync(join(dist, 'assets'))
    .map((file) => /^([\w-]+)-([a-z]{2})-[\w-]+\.json$/.exec(file))
    .filter(Boolean)
    .map((m) => [`${m[1]}/${m[2]}`, m[0]]),
);
// A Hindi page's text is in Poppins' Devanagari faces: preloaded, so that they are there for the first
// frame (fonts.css: font-display block, the text waits for them) — a system may have no Devanagari
// glyphs at all to fall back on (boxes). The latin faces are not preloaded on these pages (their
// glyphs are in the page, see paintFromHtml); the SPA shell (index.html) keeps their preload, as its first paint waits for its code.
const devanagariFonts = readdirSync(join(dist, 'assets')).filter((file) =>
  /^poppins-devanagari-(400|600)-normal-[\w-]+\.woff2$/.test(file),
);
if (devanagariFonts.length !== 2) throw new Error('prerender: the Devanagari Poppins faces are not in the build');
const fontLinks = (language) =>
  language === 'hi'
    ? devanagariFonts
        .map((file) => `    <link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/${file}">\n`)
        .join('')
    : '';
/** The text catalogs the page shows first (the frame's 'common' and the screen's own), in its language. */
const catalogUrls = (page, language) =>
  ['common', ...page.texts]
    .map((ns) => catalogs.get(`${ns}/${language}`))
    .filter(Boolean)
    .map((file) => `/assets/${file}`);

/**
 * Fetches the page's text catalogs (as preloads, which lib/i18n.ts's fetch then finds) and loads its
 * modules (the entry and the screen's chunks, in parallel), all listed in data-load, once the first
 * contentful frame is on the screen (its paint entry: it comes when the frame has been presented, not
 * when the page's thread is done with it — on a busy phone those are tens of milliseconds apart, in
 * which a download could end; where the browser has no paint entries, just after the first frame:
 * requestAnimationFrame runs just before a frame is drawn, the timeout just after it). So that frame
 * depends on the HTML alone (a Hindi page's also on its Devanagari faces): nothing competes for the
 * connection, and no download ends before it (Lighthouse counts every download that ended before the
 * largest paint into its estimate of that paint). At once in a tab not shown (no frame comes there
 * until it is shown), and when a form is sent before the app has taken over: that form is held
 * (`earlySubmit`) and sent again once the app has (lib/typed-early.ts), instead of the browser's own
 * submission reloading the page. The same text on every page, so one hash in the CSP covers it.
 */
const BOOT_SCRIPT = `((d,l)=>{const g=()=>l||(l=d.dataset.load.split(' ').map((u)=>u.endsWith('.json')?document.head.append(Object.assign(document.createElement('link'),{rel:'preload',as:'fetch',crossOrigin:'',href:u})):import(u)));addEventListener('submit',(e)=>{self.hydrating||(e.preventDefault(),self.earlySubmit=e.target,g())},!0);document.hidden?g():PerformanceObserver.supportedEntryTypes?.includes('paint')?new PerformanceObserver((p,o)=>{p.getEntriesByName('first-contentful-paint').length&&(o.disconnect(),g())}).observe({type:'paint',buffered:!0}):requestAnimationFrame(()=>setTimeout(g))})(document.currentScript)`;
const sha256 = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const inlineStyles = new Set();

/**
 * The page's stylesheets as <style> (each file its own, so that one hash covers it on every page), each
 * with a `disabled` link to its file, which the browser does not fetch: Vite's loader, which adds a
 * chunk's stylesheets when the chunk loads, sees them there and skips them. The page's
 * <script src> and modulepreload links become the list the boot script loads. The latin Poppins faces
 * are not preloaded: the page carries the glyphs of its first frame (its own <style>, added per page
 * and language below), and a face file is fetched only for a character the page did not carry.
 */
function paintFromHtml(shell) {
  const load = [];
  let styles = '';
  const html = shell
    // The browser asks for the icon while the first frame is drawn (Lighthouse counts it into the
    // largest paint): 280 bytes, carried in the page instead.
    .replace(/ href="\/favicon\.svg"/, () => ` href="${FAVICON}"`)
    .replace(/ *<script type="module" crossorigin src="([^"]+)"><\/script>\n/g, (_, src) => (load.push(src), ''))
    .replace(/ *<link rel="modulepreload" crossorigin href="([^"]+)">\n/g, (_, href) => (load.push(href), ''))
    .replace(/ *<link rel="preload" as="font" [^>]*>\n/g, '')
    .replace(/<link rel="stylesheet" crossorigin href="(\/assets\/[\w-]+\.css)">/g, (_, href) => {
      const css = readFileSync(join(dist, href), 'utf8');
      if (css.includes('</')) throw new Error(`${href}: cannot be inlined`);
      inlineStyles.add(css);
      styles += css;
      return `<style>${css}</style><link rel="stylesheet" href="${href}" disabled>`;
    });
  if (!load.length) throw new Error('prerender: the page shell loads no script');
  return {
    html: html.replace('  </body>', `    <script data-load="${load.join(' ')}">${BOOT_SCRIPT}</script>\n  </body>`),
    styles,
  };
}

const FAVICON = `data:image/svg+xml,${readFileSync(join(dist, 'favicon.svg'), 'utf8')
  .trim()
  .replaceAll('"', "'")
  .replace(/[<>#%]/g, encodeURIComponent)}`;

/** Each prerendered page's own inline style (its first frame's fonts, build/first-frame-fonts.mjs), by file. */
const pageStyles = {};

let count = 0;
for (const page of WEB_PAGES.filter((p) => p.entry)) {
  const { html: shell, styles } = paintFromHtml(readFileSync(join(dist, 'pages', `${page.name}.html`), 'utf8'));
  // A parameter's value is not known at build: the screen renders without it until it hydrates.
  const path = page.path.replace(/:[A-Za-z]+/g, '-');
  for (const language of LANGUAGES) {
    window.happyDOM.setURL(`http://localhost${path}`);
    window.localStorage.clear();
    const markup = await render(path, language);
    if (!markup.includes('<h1')) throw new Error(`prerender ${page.path} (${language}): no heading rendered`);
    const drawn = window.document.createElement('template');
    drawn.innerHTML = markup;
    // After the stylesheets: declared last, these faces are the ones the browser tries first.
    const fonts = await firstFrameFonts(dist, styles, drawnText(drawn.content));
    const file = `${page.name}.${language}.html`;
    if (fonts.style) pageStyles[`/pages/${file}`] = sha256(fonts.style);
    const preloads = fonts.urls
      .map((url) => `\n    <link rel="preload" as="font" type="font/woff2" crossorigin href="${url}">`)
      .join('');
    const html = shell
      .replace(/<html lang="[^"]*">/, `<html lang="${LANGUAGE_TAGS[language]}">`)
      // First in the head: the parser starts them before it reaches the stylesheets.
      .replace(/<meta charset="UTF-8" \/>/, (meta) => `${meta}${preloads}`)
      .replace(
        '  </head>',
        `${fontLinks(language)}${fonts.style ? `    <style>${fonts.style}</style>\n` : ''}  </head>`,
      )
      .replace(
        /<script data-load="([^"]*)"/,
        (_, load) => `<script data-load="${[...catalogUrls(page, language), load].join(' ')}"`,
      )
      .replace(
        '<div id="root"></div>',
        `<div id="root" data-path="${escape(path)}" data-lang="${language}">${markup}</div>`,
      );
    write(join(dist, 'pages', file), html);
    count++;
  }
}
// The app's other screens (/app, the meetings) share index.html: a Hindi visitor gets a copy that also
// preloads the Devanagari faces (the server picks it by Accept-Language), else on a first visit
// `font-display: optional` keeps the fallback, which has no Devanagari on many systems (boxes). Other
// languages need nothing more than the latin faces index.html preloads.
const index = readFileSync(join(dist, 'index.html'), 'utf8');
write(join(dist, 'pages', 'index.hi.html'), index.replace('  </head>', `${fontLinks('hi')}  </head>`));
writeFileSync(
  join(dist, 'prerendered.json'),
  `${JSON.stringify(Object.fromEntries(PRERENDER_KEYS.map((k) => [k, PRERENDER_CONFIG[k]])), null, 2)}\n`,
);
writeFileSync(
  join(dist, 'inline-sources.json'),
  `${JSON.stringify({ script: [sha256(BOOT_SCRIPT)], style: [...inlineStyles].map(sha256), pages: pageStyles }, null, 2)}\n`,
);
rmSync(ssr, { recursive: true, force: true });
console.log(`prerendered ${count} pages`);
await window.happyDOM.close();
