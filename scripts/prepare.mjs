#!/usr/bin/env node
// Root `prepare` script: `npm install` / `npm ci` build the product once, so that `npm start` is a
// plain `node` command. Skipped when the build tools (dev dependencies) are not installed, as in a
// production install of an already built tree (`npm ci --omit=dev`), and when SUITE_SKIP_BUILD=1
// (the test command builds right after its own `npm ci`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (process.env.SUITE_SKIP_BUILD === '1') process.exit(0);
if (!['typescript', 'vite'].every((pkg) => existsSync(join(root, 'node_modules', pkg, 'package.json')))) {
  console.log(
    'prepare: build tools not installed (production install): not building; run `npm run build` where they are.',
  );
  process.exit(0);
}
const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
