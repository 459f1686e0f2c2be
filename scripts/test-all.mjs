#!/usr/bin/env node
// The README's test command. Installs what the suites need (npm packages; Debian chromium, redis-server and, through
// scripts/with-pg.sh, postgresql), builds, runs every check and suite, and ends with the real totals
// as one line: "N passed, N failed". A test that passed only on a retry (flaky) is listed on the line before
// and counts as failed there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = join(root, '.tmp', 'test-results');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', FORCE_COLOR: '0', NO_COLOR: '1' };
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Titles of the tests that failed first and passed on a retry: reported apart, counted as failed. */
const flakyTests = [];
const lines = [];
const started = Date.now();

function run(cmd, args, options = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: options.cwd ?? root, env: { ...env, ...options.env }, stdio: 'inherit' });
  return result.status ?? 1;
}

function record(name, passed, failed, skipped = 0, seconds = 0, flaky = []) {
  totals.passed += passed;
  totals.failed += failed + flaky.length;
  totals.skipped += skipped;
  flakyTests.push(...flaky);
  lines.push(
    `${name.padEnd(28)} ${String(passed).padStart(4)} passed ${String(failed).padStart(3)} failed${flaky.length ? ` ${flaky.length} flaky` : ''}${skipped ? ` ${skipped} skipped` : ''}  (${seconds}s)`,
  );
}

function step(name, fn) {
  const t0 = Date.now();
  const outcome = fn();
  const seconds = Math.round((Date.now() - t0) / 1000);
  if (typeof outcome === 'number') record(name, outcome === 0 ? 1 : 0, outcome === 0 ? 0 : 1, 0, seconds);
  else record(name, outcome.passed, outcome.failed, outcome.skipped, seconds, outcome.flaky);
}

/** A vitest run, counted from its JSON report; a crash without a report counts as one failure. */
function vitest(name, cwd, extra = [], wrapper = []) {
  const out = join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra];
  const status = wrapper.length
    ? run(wrapper[0], [...wrapper.slice(1), 'npx', ...args], { cwd })
    : run('npx', args, { cwd });
  if (!existsSync(out)) return { passed: 0, failed: 1, skipped: 0 };
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const failed = r.numFailedTests + (status !== 0 && r.numFailedTests === 0 ? 1 : 0);
  return { passed: r.numPassedTests, failed, skipped: r.numPendingTests + (r.numTodoTests ?? 0) };
}

function freePortBlock() {
  return new Promise((resolve) => {
    const tryPort = (port) => {
      const probes = [0, 1, 2, 3, 4, 5].map(
        (i) =>
          new Promise((ok) => {
            const s = createServer();
            s.once('error', () => ok(false));
            s.listen(port + i, '127.0.0.1', () => s.close(() => ok(true)));
          }),
      );
      Promise.all(probes).then((r) => (r.every(Boolean) ? resolve(port) : tryPort(port + 6)));
    };
    tryPort(20000 + Math.floor(Math.random() * 20000));
  });
}

/** The titles of the Playwright tests whose outcome was 'flaky' (failed, then passed on a retry). */
function playwrightFlaky(suites = [], path = []) {
  return suites.flatMap((suite) => {
    const here = suite.title ? [...path, suite.title] : path;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((t) => t.status === 'flaky')
        .map((t) => [...here, spec.title].join(' › ') + ` [${t.projectName}]`),
    );
    return [...own, ...playwrightFlaky(suite.suites, here)];
  });
}

/** Debian packages the suites start for real, installed with one apt-get when any is missing. */
function ensureSystemPackages() {
  const needed = [
    [process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', 'chromium', 'the e2e suite'],
    ['/usr/bin/redis-server', 'redis-server', 'the Redis rate-limit tests'],
    ['/usr/sbin/nginx', 'nginx', 'the scale-out suite'],
    // `ss` reads an instance's socket queues (test-scale/instance-kill.test.ts); minimal images lack it.
    ['/usr/bin/ss', 'iproute2', 'the scale-out suite'],
  ].filter(([path]) => !existsSync(path));
  if (needed.length === 0) return;
  console.log(`Installing Debian ${needed.map(([, pkg, why]) => `${pkg} (${why})`).join(', ')}…`);
  const update = run('apt-get', ['update', '-qq']);
  const packages = needed.map(([, pkg]) => pkg);
  const install =
    update === 0
      ? run('apt-get', ['install', '-y', '-qq', ...packages], { env: { DEBIAN_FRONTEND: 'noninteractive' } })
      : 1;
  if (install !== 0) console.error(`Could not install ${packages.join(', ')}; the suites that need them will fail.`);
}

// 1. Install
if (!existsSync(join(root, 'node_modules', '.package-lock.json')) || process.env.CI) {
  // SUITE_SKIP_BUILD: the root `prepare` script would build here, and the build step below does.
  step('install (npm ci)', () => run('npm', ['ci', '--no-audit', '--no-fund'], { env: { SUITE_SKIP_BUILD: '1' } }));
}
ensureSystemPackages();

// 2. Build and static checks
step('build', () => run('npm', ['run', 'build']));
step('locale keys check', () => run('node', ['scripts/check-locales.mjs']));
if (!only) {
  step('typecheck', () => run('npm', ['run', 'typecheck']));
  step('lint', () => run('npx', ['eslint', '.', '--max-warnings=0']));
  step('format check', () => run('npx', ['prettier', '--check', '--log-level=warn', '.']));
  // docs/module-graph.md is generated from the sources: a layout change without `npm run graph` fails here.
  step('module graph current', () => run('node', ['scripts/module-graph.mjs', '--check']));
  // Unused files, dependencies and exports, and packages a workspace imports without declaring (knip.jsonc).
  step('unused code and dependencies (knip)', () => run('npx', ['knip', '--no-progress']));
}

// 3. Suites
step('contract (vitest)', () => vitest('contract', join(root, 'packages/contract')));
step('web (vitest)', () => vitest('web', join(root, 'apps/web')));
step('server sqlite (vitest)', () => vitest('server-sqlite', join(root, 'apps/server')));
if (only !== 'unit') {
  step('server postgresql (vitest)', () =>
    vitest('server-postgresql', join(root, 'apps/server'), [], ['bash', join(root, 'scripts/with-pg.sh')]),
  );
  // Two built server processes behind nginx on their own PostgreSQL, Redis and SMTP (issue 12).
  step('scale-out (vitest)', () =>
    vitest('scale-out', join(root, 'apps/server'), ['--config', 'test-scale/vitest.config.ts']),
  );
  const port = await freePortBlock();
  step('e2e chromium (playwright)', () => {
    const workDir = join(root, '.tmp', `e2e-${port}`);
    const status = run('npx', ['playwright', 'test'], {
      cwd: join(root, 'e2e'),
      env: { E2E_PORT: String(port), E2E_WORK_DIR: workDir },
    });
    const report = join(workDir, 'results.json');
    if (!existsSync(report)) return { passed: 0, failed: 1, skipped: 0 };
    const results = JSON.parse(readFileSync(report, 'utf8'));
    const s = results.stats;
    const flaky = playwrightFlaky(results.suites);
    // A non-zero exit the report does not explain (a crash) is one failure; record() counts the flaky ones.
    const failed = s.unexpected + (status !== 0 && s.unexpected === 0 ? 1 : 0);
    return { passed: s.expected, failed, skipped: s.skipped, flaky };
  });
}

const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\n=== Summary (${minutes} min) ===`);
for (const line of lines) console.log(line);
if (flakyTests.length) {
  console.log(`${flakyTests.length} flaky (passed only on a retry, counted as failed below):`);
  for (const title of flakyTests) console.log(`  flaky: ${title}`);
}
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed === 0 ? 0 : 1);
