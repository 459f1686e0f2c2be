#!/usr/bin/env node
// `npm run screenshots`: the screenshot pass, for a person to look at. Runs the e2e specs that take
// screenshots (those that use the fixtures' screenshots helpers) with E2E_SCREENSHOTS=1, against the
// built server (`npm run build` first). `npm test` runs the same specs without the captures, keeping their
// checks. Extra arguments go to Playwright (e.g. `npm run screenshots -- --grep meeting`).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tests = join(root, 'e2e', 'tests');
const specs = readdirSync(tests)
  .filter((f) => f.endsWith('.spec.ts'))
  .filter((f) => /\bTAKING_SCREENSHOTS\b|\bscreenshots\(/.test(readFileSync(join(tests, f), 'utf8')))
  .map((f) => `tests/${f}`);
const port = Number(process.env.E2E_PORT ?? 31000 + Math.floor(Math.random() * 2000));
const workDir = process.env.E2E_WORK_DIR ?? join(root, '.tmp', 'screenshots-run');
console.log(`Screenshot pass over ${specs.length} specs; shots in ${join(root, '.tmp', 'screenshots')} and ${workDir}`);
const result = spawnSync('npx', ['playwright', 'test', ...specs, ...process.argv.slice(2)], {
  cwd: join(root, 'e2e'),
  stdio: 'inherit',
  env: { ...process.env, E2E_SCREENSHOTS: '1', E2E_PORT: String(port), E2E_WORK_DIR: workDir },
});
process.exit(result.status ?? 1);
