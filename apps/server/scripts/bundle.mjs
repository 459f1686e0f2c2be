// The production entry as one bundle: `npm run build` runs this after tsc, writing dist/src/server.cjs
// from src/server.ts (the server's code and the packages it loads at start in one file) and, as
// dist/src/server.js (what `npm start` runs), scripts/launcher.mjs, which runs it with V8's code cache.
// Node then reads and compiles one file instead of resolving and linking some 600 modules one by one
// (most of a cold start), and holds less for them. What loads later stays out of it: the packages only
// the server's lazily imported files or a dynamic import() use (nodemailer, jose, the password and
// free-mail lists, the S3 client, swagger, Redis, React Email…) stay packages, loaded from node_modules
// then. Native addons (better-sqlite3, argon2) stay packages; pg and @fontsource are found at run time
// through createRequire. The other compiled files (tsc's dist/src/**, which bin/admin uses) are left as
// they are.
import { build } from 'esbuild';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'src/server.ts';
const NATIVE = new Set(['better-sqlite3', '@node-rs/argon2']);
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const isBare = (specifier) => !/^(\.|\/|node:)/.test(specifier);

const common = {
  absWorkingDir: root,
  entryPoints: { server: ENTRY },
  outdir: 'dist/src',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  // CommonJS: scripts/launcher.mjs compiles it as one vm.Script, which can use V8's code cache (an ES
  // module cannot on Node 20). The server's own lazily imported files (mail layout, S3 storage) are
  // then in the bundle but run only when first imported; packages imported on first use stay import().
  format: 'cjs',
  define: { 'import.meta.url': '__importMetaUrl' },
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};

/** The packages the server imports statically from a file it loads at start (found by following imports). */
async function packagesAtStart() {
  const { metafile } = await build({ ...common, packages: 'external', write: false, metafile: true });
  const atStart = new Set();
  const seen = new Set([ENTRY]);
  const queue = [ENTRY];
  while (queue.length) {
    for (const { path, kind, external } of metafile.inputs[queue.pop()]?.imports ?? []) {
      if (kind !== 'import-statement' && kind !== 'require-call') continue;
      if (external) {
        if (isBare(path)) atStart.add(packageOf(path));
      } else if (!seen.has(path)) {
        seen.add(path);
        queue.push(path);
      }
    }
  }
  return atStart;
}

const atStart = await packagesAtStart();
// What earlier builds left: chunks of the ES module bundle, the code cache of the previous bundle.
rmSync(`${root}dist/src/chunks`, { recursive: true, force: true });
rmSync(`${root}dist/src/server.cjs.v8cache`, { force: true });
rmSync(`${root}dist/src/server.js.map`, { force: true });
await build({
  ...common,
  // Whitespace and syntax only: names stay as written (stack traces, logs); source map beside it.
  minifyWhitespace: true,
  minifySyntax: true,
  // ASCII source: V8 keeps it as a one-byte string (any other character doubles its size in memory).
  charset: 'ascii',
  sourcemap: true,
  legalComments: 'none',
  // import.meta.url of the server's files (they are ES modules), from the launcher's __filename.
  banner: { js: "const __importMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
  plugins: [
    {
      name: 'packages-loaded-later-stay-packages',
      setup(b) {
        // zod re-exports every language of its error messages (`z.locales`, some 290 KiB of the bundle,
        // compiled at each start); the server and the contract use none (messages come from the contract's
        // catalogue), and zod itself loads English from its own file. Only that one stays.
        b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
          /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
            ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'zod-locales' }
            : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
          contents: `export { default as en } from ${JSON.stringify(args.path)};`,
          resolveDir: dirname(args.path),
        }));
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('node:')) return undefined;
          const name = packageOf(args.path);
          // A package's own imports (the contract's too) are bundled with it, unless dynamic.
          const fromServer = args.importer.startsWith(`${root}src/`);
          const later = args.kind === 'dynamic-import' || (fromServer && !atStart.has(name));
          return NATIVE.has(name) || later ? { path: args.path, external: true } : undefined;
        });
      },
    },
  ],
});
// The bundle's import() of packages becomes a call of the launcher's `__import`: V8 loses a vm.Script's
// dynamic-import callback when it takes the script's code from a cache (Node 20: "A dynamic import
// callback was not specified"), so the import() itself runs in the launcher, an ordinary ES module in
// the same folder (same resolution). Only literal specifiers are here (the packages left outside).
const bundled = `${root}dist/src/server.cjs`;
const code = readFileSync(bundled, 'utf8').replace(/(?<![\w$.])import\((?=")/g, '__import(');
if (/(?<![\w$.])import\(/.test(code)) throw new Error('server.cjs: an import() the launcher does not handle');
writeFileSync(bundled, code);
// The entry `npm start` runs: it loads server.cjs with V8's code cache.
copyFileSync(`${root}scripts/launcher.mjs`, `${root}dist/src/server.js`);
