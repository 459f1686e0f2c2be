import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import type { ConfigEnv, Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { WEB_PAGES } from '@suite/contract/core';
import { linguiCatalogAssets, linguiCatalogs } from './build/lingui-catalogs';

const require = createRequire(import.meta.url);

/** The browser build only (not the server-side build of src/prerender.tsx). */
const clientBuild = (_config: unknown, env: ConfigEnv) => env.command === 'build' && !env.isSsrBuild;

/**
 * The locale texts (5 languages x 16 namespaces, loaded one at a time) are named by one version for all
 * of them — a hash of every locale file — so that the browser computes a catalog's name
 * (assets/<ns>-<lang>-<version>.json) instead of carrying a map of them. Any text changed gives every
 * catalog a new name (they stay immutable).
 */
const LOCALES_DIR = fileURLToPath(new URL('src/locales', import.meta.url));
const localesVersion = (() => {
  const hash = createHash('sha256');
  for (const lang of readdirSync(LOCALES_DIR).sort())
    for (const file of readdirSync(join(LOCALES_DIR, lang)).sort())
      hash.update(`${lang}/${file}\0`).update(readFileSync(join(LOCALES_DIR, lang, file)));
  return hash.digest('base64url').slice(0, 8);
})();
const localeNamespaces = readdirSync(join(LOCALES_DIR, 'en'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();
const localeChunk = /[\\/]src[\\/]locales[\\/]([a-z]{2})[\\/]([\w-]+)\.json$/;

/**
 * The static legal pages (public/legal) are not processed by Vite: this copies the Poppins files their
 * stylesheet names (latin and devanagari, 400 and 600) from @fontsource into dist/legal/fonts, so that
 * they use the app's self-hosted font too (Hindi included) without a second copy in the repository.
 */
function legalFonts(): Plugin {
  const files = ['latin-400', 'latin-600', 'devanagari-400', 'devanagari-600'].map((f) => `poppins-${f}-normal.woff2`);
  return {
    name: 'legal-fonts',
    apply: clientBuild,
    generateBundle() {
      for (const file of files) {
        const source = readFileSync(require.resolve(`@fontsource/poppins/files/${file}`));
        this.emitFile({ type: 'asset', fileName: `legal/fonts/${file}`, source });
      }
    },
  };
}

/**
 * With BUNDLE_REPORT=<file> (npm run bench sets it): what each chunk is made of, by package, and which
 * chunks each entry pulls in statically — Vite's own bundle data, written as Markdown.
 */
function bundleReport(file: string | undefined): Plugin | false {
  if (!file) return false;
  return {
    name: 'bundle-report',
    apply: clientBuild,
    generateBundle(_options, bundle) {
      const lines = ['# Bundle report', '', '| chunk | bytes | static imports | largest parts |', '|---|---|---|---|'];
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      for (const chunk of chunks.sort((a, b) => b.code.length - a.code.length)) {
        const parts = new Map<string, number>();
        for (const [id, info] of Object.entries(chunk.modules)) {
          const pkg =
            /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? id.replace(/^.*?\/(apps|packages)\//, '$1/');
          parts.set(pkg, (parts.get(pkg) ?? 0) + info.renderedLength);
        }
        const top = [...parts].sort((a, b) => b[1] - a[1]).filter(([, n], i) => i < 6 || n >= 500);
        lines.push(
          `| ${chunk.fileName}${chunk.isEntry ? ' (entry)' : ''} | ${chunk.code.length} | ${chunk.imports.join(' ')} | ${top.map(([p, n]) => `${p} ${n}`).join(', ')} |`,
        );
      }
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${lines.join('\n')}\n`);
    },
  };
}

/**
 * Every text file of the build also written as .br (quality 11) and .gz (level 9) beside it, when that
 * is smaller: the server sends them as they are (Content-Encoding), nothing is compressed per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
    );
  return {
    name: 'precompress',
    apply: clientBuild,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)$/.test(file)) continue;
        const body = readFileSync(file);
        const br = brotliCompressSync(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        });
        const gz = gzipSync(body, { level: 9 });
        if (br.length < body.length) writeFileSync(`${file}.br`, br);
        if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/**
 * The entry screens (`entry` pages of the one route table, WEB_PAGES in the contract), each with the
 * modules its first paint needs (the router and the user layout load them lazily). For each one the
 * build writes dist/pages/<name>.html — index.html plus modulepreload links for those chunks and
 * everything they import, and their stylesheets — which the server serves for the page's addresses
 * (it reads the same table): the screen's code downloads in parallel with the entry script instead
 * of after it.
 */
const ENTRY_PAGES = WEB_PAGES.filter((page) => page.entry).map((page) => ({
  path: page.path,
  name: page.name,
  modules: [`src/${page.screen}.tsx`],
}));

/**
 * The pictures of the /user layout's steps (src/app/step-pictures.svg), one SVG of symbols in every
 * page's HTML, in place of <!--step-pictures--> in index.html: a page paints its step's picture from its
 * HTML, and a step reached in the app finds its own there too, without a request or a byte of code.
 */
function stepPictures(): Plugin {
  const file = fileURLToPath(new URL('src/app/step-pictures.svg', import.meta.url));
  return {
    name: 'step-pictures',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) =>
        html.replace(
          '<!--step-pictures-->',
          readFileSync(file, 'utf8')
            .replace(/<!--[\s\S]*?-->\s*/g, '')
            .replace(/>\s+</g, '><')
            .trim(),
        ),
    },
  };
}

/**
 * The Poppins faces every page shows first (latin, regular and semibold): preloaded by the app's shell
 * (index.html), whose first paint waits for its code anyway. A prerendered page drops these links
 * (build/prerender.mjs): it carries the glyphs of its first frame itself (build/first-frame-fonts.mjs).
 */
const PRELOADED_FONTS = [/poppins-latin-400-normal-[\w-]+\.woff2$/, /poppins-latin-600-normal-[\w-]+\.woff2$/];

function entryPages(): Plugin {
  let outDir = 'dist';
  let root = '';
  const chunks = new Map<string, { file: string; imports: string[]; css: string[] }>();
  let fonts: string[] = [];
  return {
    name: 'entry-pages',
    apply: clientBuild,
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') {
          const css = [...((item as { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? [])];
          const entry = { file: item.fileName, imports: item.imports, css };
          chunks.set(item.fileName, entry);
          // By the modules in it (a screen may share its chunk with what it uses: codeSplitting groups).
          for (const id of item.moduleIds) if (!chunks.has(id) || item.facadeModuleId === id) chunks.set(id, entry);
        }
      }
      fonts = Object.keys(bundle).filter((name) => PRELOADED_FONTS.some((re) => re.test(name)));
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = fonts.map(
          (f) => `    <link rel="preload" as="font" type="font/woff2" crossorigin href="/${f}">\n`,
        );
        return html.replace('  </head>', `${links.join('')}  </head>`);
      },
    },
    closeBundle() {
      const index = readFileSync(join(outDir, 'index.html'), 'utf8');
      mkdirSync(join(outDir, 'pages'), { recursive: true });
      for (const page of ENTRY_PAGES) {
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (key: string) => {
          const chunk = chunks.get(key);
          if (!chunk || files.has(chunk.file)) return;
          files.add(chunk.file);
          chunk.css.forEach((c) => css.add(c));
          chunk.imports.forEach(visit);
        };
        for (const module of page.modules) {
          if (!chunks.has(resolve(root, module))) throw new Error(`entry page ${page.path}: no chunk for ${module}`);
          visit(resolve(root, module));
        }
        const links = [
          ...[...files]
            .filter((f) => !index.includes(`/${f}"`))
            .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
          ...[...css]
            .filter((f) => !index.includes(`/${f}"`))
            .map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
        ];
        const file = `pages/${page.name}.html`;
        writeFileSync(
          join(outDir, file),
          index.replace('  </head>', `${links.map((l) => `    ${l}\n`).join('')}  </head>`),
        );
      }
    },
  };
}

const TEST_INCLUDE = ['src/**/*.test.{ts,tsx}', 'build/**/*.test.{ts,mjs}'];
const webRoot = fileURLToPath(new URL('.', import.meta.url));
const testFiles = (dir: string): string[] =>
  readdirSync(join(webRoot, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : /\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
/**
 * Test files share their worker's modules and page (isolate: false): happy-dom, React and the contract's
 * schemas load once per worker instead of once per file, a fifth of the suite's CPU time. A file that
 * replaces or reloads modules (vi.mock, vi.doMock, vi.resetModules) cannot share them and gets its own:
 * found by reading the files, so that a new one needs no list.
 */
const ownModules = ['src', 'build']
  .flatMap(testFiles)
  .filter((file) => /\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(join(webRoot, file), 'utf8')));

export default defineConfig({
  plugins: [
    react(),
    linguiCatalogs(localeChunk),
    linguiCatalogAssets(LOCALES_DIR, localesVersion, clientBuild),
    legalFonts(),
    bundleReport(process.env.BUNDLE_REPORT),
    stepPictures(),
    entryPages(),
    precompress(),
  ],
  define: {
    __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()),
    __LOCALES__: JSON.stringify({ version: localesVersion, namespaces: localeNamespaces }),
  },
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
    // wouter still imports the useSyncExternalStore shim for React 17; React 19 has the hook itself and
    // the shim only hands it on (0.3 KB br of every first load).
    alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' }],
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    assetsInlineLimit: 2048,
    // No list of every lazy chunk's dependencies in the app chunk (0.4 KB br of every first load): an entry
    // page preloads its screen's chunks from its HTML (entryPages), a lazy screen's own imports load with
    // it, and the /user layout fetches the likely next forms while this one is read.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // Fewer, larger files: one file compresses better than several (brotli finds the repeats across
        // the whole file) and costs fewer requests. 'app': the entry and everything the entry screens load
        // with it (React DOM, the router, the frame, the /user layout, the shared fields, alerts and hooks
        // of components/ and lib/), one file; what only some screens use, or only later (the passkey code,
        // the browser check, dialogs, toasts, the captcha, the fresh-proof dialog, "Ask for access", file
        // downloads, the home's header and avatar menu, the authenticator enrolment, the meeting helpers),
        // stays out of it, in its own chunk. The contract's paths of the entry screens (paths-accounts.ts) go in
        // it too: several lazy screens share them, and alone they would be one more small file.
        codeSplitting: {
          groups: [
            {
              name: 'app',
              test: /node_modules[\\/](react-dom|scheduler)[\\/]|contract[\\/]src[\\/]paths-accounts\.ts$|src[\\/](main\.tsx|app[\\/](router|page-frame|providers|route-error|user-layout)\.tsx|(components|lib)[\\/](?!confirm-dialog-view|sso-choice-view|sso-choice\.|sso\.|toast-view|toast\.css|dialog\.css|item-list|webauthn|browser|safe-redirect|checkbox|progress-bar|format-bytes|password-rules|name-rules|captcha|terms-consent|use-copy-to-clipboard|code-boxes|second-factor-step|destructive|invitation-|modal-dialog|guest\.|ask-for-access|fresh-proof|reauth|api-download|home-header|avatar-menu|totp-enrolment|sign-out|meeting-code|videoconference|welcome-session|load-error|logger))/,
              priority: 1,
            },
            {
              // The code step and its six boxes (also used by the login's lazy second step): one file.
              name: 'code-check',
              test: /src[\\/](features[\\/]code-check[\\/]code-check-form|components[\\/]code-boxes)\./,
            },
            {
              // Home-realm discovery and the single sign-on choice beside the address field (login,
              // sign-up, recovery, new password): one small file instead of two.
              name: 'sso',
              test: /src[\\/](lib[\\/]sso|components[\\/]sso-choice)\.tsx?$/,
            },
            {
              // What the forms that take a name or a new password share (welcome, new password, guest).
              name: 'form-rules',
              test: /src[\\/](text\.ts|lib[\\/](password-rules|name-rules))/,
            },
            {
              // The terms line and its checkbox (welcome, guest): not in the new password's first load.
              name: 'terms-consent',
              test: /src[\\/]components[\\/](checkbox|terms-consent)/,
            },
          ],
        },
      },
    },
    chunkSizeWarningLimit: 200,
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  test: {
    environment: 'happy-dom',
    setupFiles: ['src/test-setup.ts'],
    // A screen test renders, waits for its fetches and clicks through in 1–3 s on an idle machine; on a
    // loaded CI machine the same took 9 s. The bound is for a hang, not for speed (the bench has those).
    testTimeout: 20_000,
    // (include and exclude are per project: extends would add the root's lists to each.)
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: TEST_INCLUDE,
          exclude: [...configDefaults.exclude, ...ownModules],
          isolate: false,
        },
      },
      ...(ownModules.length ? [{ extends: true as const, test: { name: 'own modules', include: ownModules } }] : []),
    ],
  },
});
