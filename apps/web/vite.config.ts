import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const require = createRequire(import.meta.url);

/**
 * The static legal pages (public/legal) are not processed by Vite: this copies the Poppins files their
 * stylesheet names (latin and devanagari, 400 and 600) from @fontsource into dist/legal/fonts, so that
 * they use the app's self-hosted font too (Hindi included) without a second copy in the repository.
 */
function legalFonts(): Plugin {
  const files = ['latin-400', 'latin-600', 'devanagari-400', 'devanagari-600'].map((f) => `poppins-${f}-normal.woff2`);
  return {
    name: 'legal-fonts',
    apply: 'build',
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
    apply: 'build',
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
        const top = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6);
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
    apply: 'build',
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

export default defineConfig({
  plugins: [react(), legalFonts(), bundleReport(process.env.BUNDLE_REPORT), precompress()],
  resolve: {
    conditions: ['source', 'module', 'browser', 'development|production'],
    // The app's own small router and translation hook stand in for React Router and react-i18next
    // (the same API subset; ~35 KiB gzipped less on every first load). tsconfig.json maps them too.
    alias: {
      'react-router': fileURLToPath(new URL('src/lib/router.tsx', import.meta.url)),
      'react-i18next': fileURLToPath(new URL('src/lib/i18n-react.tsx', import.meta.url)),
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    assetsInlineLimit: 2048,
    chunkSizeWarningLimit: 200,
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
