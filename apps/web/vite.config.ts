import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

export default defineConfig({
  plugins: [react(), legalFonts()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
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
