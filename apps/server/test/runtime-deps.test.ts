import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { serverRoot } from '../src/config.js';

/**
 * The built server runs with production dependencies only (`npm ci --omit=dev` after a build): every
 * package the compiled code imports must be a `dependency` of the workspace whose code imports it.
 */
const repo = join(serverRoot(), '../..');

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : /\.c?js$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Package names imported (statically or dynamically), required or re-exported by the compiled files
 * under `dir` (tsc's output and the bundle's minified CommonJS: `require("pkg")`, `__import("pkg")`).
 * esbuild writes its require calls with double quotes; the `require('…')` and `` `require("…")`` in
 * template literals are code that ajv and fast-json-stringify generate, resolved from their own folder.
 */
function importedPackages(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of jsFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /(?<![\w$.'"/`-])(?:(?:import|export)\s*(?:[\w$*{}\s,]+?\bfrom\s*)?|(?:__)?import\s*\(\s*|require\((?="))['"]([^'"./][^'"]*)['"]/g,
    )) {
      const spec = m[1] ?? '';
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
    }
  }
  return names;
}

const dependenciesOf = (pkgDir: string) =>
  Object.keys(
    (JSON.parse(readFileSync(join(repo, pkgDir, 'package.json'), 'utf8')) as { dependencies?: object }).dependencies ??
      {},
  );

describe('production dependencies', () => {
  it.each([
    ['apps/server', ['dist/src', 'dist/bin']],
    ['packages/contract', ['dist']],
  ])('%s imports only packages listed in its dependencies', (pkgDir, dirs) => {
    const built = dirs.map((d) => join(repo, pkgDir, d));
    expect(built.every(existsSync), `build ${pkgDir} first (npm run build)`).toBe(true);
    const imported = new Set(built.flatMap((d) => [...importedPackages(d)]));
    expect(imported.size).toBeGreaterThan(0);
    const missing = [...imported].filter((name) => !dependenciesOf(pkgDir).includes(name));
    expect(missing).toEqual([]);
  });

  it('npm start is a plain node command (no build before it)', () => {
    const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(root.scripts.start).toBe('node apps/server/dist/src/server.js');
    expect(root.scripts.prestart).toBeUndefined();
    expect(root.scripts.prepare).toBe('node scripts/prepare.mjs');
  });
});
