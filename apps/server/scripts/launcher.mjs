// The production entry (dist/src/server.js, what `npm start` runs), written there by scripts/bundle.mjs:
// it runs the server's bundle (server.cjs) with V8's code cache. Node 20 caches no compiled code of its
// own (module.enableCompileCache is Node 22), and compiling the 2 MB bundle, then each function it
// calls while starting, was a third of the start's CPU time. Here the bundle is compiled as a vm.Script
// with the bytecode a previous start left in server.cjs.v8cache; right after the server listens, a
// start that had no cache (or one V8 refused: another Node version or V8 flags) writes it, to a
// temporary name then renamed, so a concurrent start never reads half a file. A cache that cannot be
// written (read-only install) only costs the compile, as before. The build removes the cache.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const file = fileURLToPath(new URL('./server.cjs', import.meta.url));
const cacheFile = `${file}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new vm.Script(
  `(function (exports, require, module, __filename, __dirname, __import) {${readFileSync(file, 'utf8')}\n})`,
  { filename: file, cachedData },
);
const writeCache = !cachedData || script.cachedDataRejected;
cachedData = undefined;
// server.ts emits this once it listens: by then the start's functions are compiled (into the cache).
process.once('server-listening', () => {
  // V8's default back (its flags are part of the cache's key): under load the young generation grows.
  v8.setFlagsFromString('--semi-space-growth-factor=2');
  if (!writeCache) return;
  const temporary = `${cacheFile}.${process.pid}`;
  try {
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
  } catch {
    // Not writable: the next start compiles, as without a cache.
    rmSync(temporary, { force: true });
  }
});
const module = { exports: {} };
// The bundle's import() calls (scripts/bundle.mjs), resolved from this folder, the bundle's own.
const load = (specifier) => import(specifier);
// Runs the bundle's top level; the server's start then goes on in promises.
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), load);
// While the routes are built, the young generation keeps the size it has now (8 MiB, as a bare Fastify
// has at rest): the start's objects all survive, and V8 would double it once more for them, then keep
// it for the life of an idle process (idle RSS 88 → 84 MiB, for some 10 ms more of scavenges).
v8.setFlagsFromString('--semi-space-growth-factor=1');
