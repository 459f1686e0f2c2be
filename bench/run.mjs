#!/usr/bin/env node
// Runs every benchmark in this folder (each prints its own ratios against a baseline measured in the same run).
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
// The benchmarks run the built server: build it first on a fresh clone.
if (!existsSync(`${here}../apps/server/dist/src/server.js`) || !existsSync(`${here}../apps/web/dist/index.html`)) {
  console.log('Building (apps/server/dist or apps/web/dist is missing)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: `${here}..`, stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}
const only = process.argv[2];
let failed = 0;
for (const file of readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n### ${file}`);
  const r = spawnSync(process.execPath, [`${here}${file}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
