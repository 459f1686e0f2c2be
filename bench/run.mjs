#!/usr/bin/env node
// Runs every benchmark in this folder (each prints its own ratios against a baseline measured in the same run).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
let failed = 0;
for (const file of readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs').sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n### ${file}`);
  const r = spawnSync(process.execPath, [`${here}${file}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
