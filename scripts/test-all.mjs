#!/usr/bin/env node
// The README's test command. Installs what the suites need (npm packages; Debian chromium-headless-shell,
// chromium, redis-server and, through scripts/with-pg.sh, postgresql), builds, runs every check and suite,
// and ends with the real totals as one line: "N passed, N failed". A test that passed only on a retry
// (flaky) is listed on the line before and counts as failed there.
//
// After the build, every step runs side by side with the others, at most STEP_CONCURRENCY (default 2, the
// cores of a developer's machine and CI's) at a time: the e2e suite first, in a lane of its own, and the
// static checks, the contract and web suites and the two server suites (SQLite, and PostgreSQL for the files
// that touch the database: apps/server/test/postgres-suite.ts) one after another in the other lane, with the
// scale-out suite beside them (it mostly waits on processes it starts and kills). A step run beside others has
// its output captured and printed whole when it ends, so that no two interleave. Each step's time and CPU
// seconds are printed at the end.
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
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
/** What the page showed at each failed e2e attempt (flaky ones too): printed before the summary. */
const failedPages = [];
const lines = [];
const started = Date.now();

const concurrency = Math.max(1, Number(process.env.STEP_CONCURRENCY ?? 2));

/**
 * CPU seconds (user + system) of the processes this one has waited for, from /proc/self/stat (Linux; null
 * elsewhere): a child's figure includes every descendant it waited for in turn (Playwright's browsers and
 * servers, Vitest's workers). Unlike wall time it hardly changes when others share the machine, so each
 * step's is printed beside its time.
 */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime (fields 16 and 17 of proc(5)), in clock ticks of 1/100 s on Linux.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
/** The step a command runs for (set by timed()), so that the CPU of its processes is added to it. */
const currentStep = new AsyncLocalStorage();
let cpuSeen = childCpuSeconds();
/** Adds the CPU of the children waited for since the last call to the step running now. */
function chargeCpu() {
  const now = childCpuSeconds();
  if (now === null || cpuSeen === null) return;
  const store = currentStep.getStore();
  if (store) store.cpu += now - cpuSeen;
  cpuSeen = now;
}

/**
 * Runs a command. In a step of its own its output streams through; beside other steps (options.capture)
 * it is collected and printed in one piece when the command ends.
 */
async function run(cmd, args, options = {}) {
  const header = `\n$ ${cmd} ${args.join(' ')}`;
  const spawnOptions = { cwd: options.cwd ?? root, env: { ...env, ...options.env } };
  if (!options.capture) {
    console.log(header);
    const status = spawnSync(cmd, args, { ...spawnOptions, stdio: 'inherit' }).status ?? 1;
    chargeCpu();
    return status;
  }
  const child = spawn(cmd, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  child.stderr.on('data', (c) => chunks.push(c));
  const status = await new Promise((resolve) => {
    child.once('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      resolve(1);
    });
    child.once('close', (code) => {
      chargeCpu();
      resolve(code ?? 1);
    });
  });
  console.log(`${header}\n${Buffer.concat(chunks).toString('utf8').trimEnd()}`);
  return status;
}

function record(name, passed, failed, skipped = 0, seconds = 0, flaky = [], cpu = null) {
  totals.passed += passed;
  totals.failed += failed + flaky.length;
  totals.skipped += skipped;
  flakyTests.push(...flaky);
  lines.push(
    `${name.padEnd(36)} ${String(passed).padStart(4)} passed ${String(failed).padStart(3)} failed${flaky.length ? ` ${flaky.length} flaky` : ''}${skipped ? ` ${skipped} skipped` : ''}  (${seconds}s${cpu === null ? '' : `, ${Math.round(cpu)} CPU s`})`,
  );
}

/** Runs one step (fn gets `capture`: whether it runs beside others) and times it. */
async function timed(fn, capture) {
  const t0 = Date.now();
  const usage = { cpu: 0 };
  let outcome;
  try {
    outcome = await currentStep.run(usage, () => fn(capture));
  } catch (error) {
    console.error(error);
    outcome = 1;
  }
  const cpu = cpuSeen === null ? null : usage.cpu;
  return { outcome, seconds: Math.round((Date.now() - t0) / 1000), cpu };
}

function recordOutcome(name, { outcome, seconds, cpu }) {
  if (typeof outcome === 'number') record(name, outcome === 0 ? 1 : 0, outcome === 0 ? 0 : 1, 0, seconds, [], cpu);
  else record(name, outcome.passed, outcome.failed, outcome.skipped, seconds, outcome.flaky, cpu);
}

async function step(name, fn) {
  recordOutcome(name, await timed(fn, false));
}

/**
 * Steps that do not depend on each other, at most `concurrency` at a time; each is timed on its own and
 * recorded in the order given (the wall time of the group is printed apart). `beside`: steps that mostly
 * wait (processes starting, timers, the network) rather than compute, each started at once in a lane of
 * its own, beyond `concurrency`.
 */
async function together(steps, { beside = [] } = {}) {
  const t0 = Date.now();
  const all = [...steps, ...beside];
  const results = new Array(all.length);
  let next = 0;
  const lane = async () => {
    while (next < steps.length) {
      const i = next++;
      console.log(`\n[started] ${steps[i][0]}`);
      results[i] = await timed(steps[i][1], all.length > 1);
    }
  };
  const own = beside.map(async ([name, fn], j) => {
    console.log(`\n[started] ${name} (beside)`);
    results[steps.length + j] = await timed(fn, true);
  });
  await Promise.all([...Array.from({ length: Math.min(concurrency, steps.length) }, lane), ...own]);
  all.forEach(([name], i) => recordOutcome(name, results[i]));
  const names = all.map(([name]) => name).join(', ');
  const extra = beside.length ? ` + ${beside.length} beside` : '';
  lines.push(
    `  (side by side, ${concurrency} at a time${extra}: ${Math.round((Date.now() - t0) / 1000)}s for ${names})`,
  );
}

/** A vitest run, counted from its JSON report; a crash without a report counts as one failure. */
async function vitest(name, cwd, { extra = [], wrapper = [], capture = false } = {}) {
  const out = join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra];
  const status = wrapper.length
    ? await run(wrapper[0], [...wrapper.slice(1), 'npx', ...args], { cwd, capture })
    : await run('npx', args, { cwd, capture });
  if (!existsSync(out)) return { passed: 0, failed: 1, skipped: 0 };
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const failed = r.numFailedTests + (status !== 0 && r.numFailedTests === 0 ? 1 : 0);
  return { passed: r.numPassedTests, failed, skipped: r.numPendingTests + (r.numTodoTests ?? 0) };
}

/**
 * A block of E2E_PORT_SPAN ports for one e2e run (e2e/env.ts: the app servers, SMTP, the Jitsi stand-in, nginx,
 * DNS on TCP and UDP), below 32768: Linux hands out outgoing connections' ports from 32768 up, and one of
 * those could take a port of the block between the probe and the server's start. Two runs side by side
 * (two checkouts, or a developer's run beside CI's) never share a block: each claims its block with a lock
 * file created exclusively and kept until it exits; a lock whose process is gone is taken over.
 */
const E2E_PORT_SPAN = 7;
const E2E_BLOCK_STRIDE = 10;
const E2E_FIRST_PORT = 20000;
const E2E_BLOCKS = Math.floor((32768 - E2E_FIRST_PORT - E2E_PORT_SPAN) / E2E_BLOCK_STRIDE);
const portLocks = join(tmpdir(), 'suite-e2e-ports');

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Claims the lock of the block at `port`; false when a live process holds it. */
function claimBlock(port) {
  mkdirSync(portLocks, { recursive: true });
  const lock = join(portLocks, String(port));
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    const holder = Number(readFileSync(lock, 'utf8'));
    if (holder && processAlive(holder)) return false;
    rmSync(lock, { force: true });
    return claimBlock(port);
  }
  process.once('exit', () => rmSync(lock, { force: true }));
  return true;
}

/** Whether nothing listens on `port` (TCP, and UDP too when `udp`) on loopback. */
function portFree(port, udp) {
  const tcp = new Promise((ok) => {
    const s = createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
  if (!udp) return tcp;
  const dgram = new Promise((ok) => {
    const s = createSocket('udp4');
    s.once('error', () => ok(false));
    s.bind(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
  return Promise.all([tcp, dgram]).then((r) => r.every(Boolean));
}

async function freePortBlock() {
  const first = Math.floor(Math.random() * E2E_BLOCKS);
  for (let i = 0; i < E2E_BLOCKS; i++) {
    const port = E2E_FIRST_PORT + ((first + i) % E2E_BLOCKS) * E2E_BLOCK_STRIDE;
    if (!claimBlock(port)) continue;
    const probes = Array.from({ length: E2E_PORT_SPAN }, (_, k) => portFree(port + k, k === E2E_PORT_SPAN - 1));
    if ((await Promise.all(probes)).every(Boolean)) return port;
  }
  throw new Error('No free block of ports for the e2e suite below 32768');
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

/**
 * Each failed Playwright attempt (a flaky test's first one too) with the page as it stood: the ARIA
 * snapshot in its error context. A run elsewhere (CI) keeps only its output, so the output says what
 * the test saw instead of pointing at a trace on a machine nobody can open.
 */
function playwrightFailedPages(suites = [], path = []) {
  return suites.flatMap((suite) => {
    const here = suite.title ? [...path, suite.title] : path;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests.flatMap((t) =>
        t.results
          .filter((r) => r.status === 'failed' || r.status === 'timedOut')
          .map((r) => {
            const context = r.attachments.find((a) => a.name === 'error-context' && a.path && existsSync(a.path));
            return {
              title: [...here, spec.title].join(' › ') + ` [${t.projectName}] (attempt ${r.retry + 1})`,
              page: context ? readFileSync(context.path, 'utf8') : '',
            };
          }),
      ),
    );
    return [...own, ...playwrightFailedPages(suite.suites, here)];
  });
}

/** Debian packages the suites start for real, installed with one apt-get when any is missing. */
async function ensureSystemPackages() {
  const needed = [
    // The e2e suite runs in the headless shell (lighter); the full browser takes the screenshots a person looks at.
    ['/usr/lib/chromium/chromium-headless-shell', 'chromium-headless-shell', 'the e2e suite'],
    ['/usr/bin/chromium', 'chromium', 'the screenshot pass'],
    ['/usr/bin/redis-server', 'redis-server', 'the Redis rate-limit tests'],
    ['/usr/sbin/nginx', 'nginx', 'the scale-out suite'],
    // `ss` reads an instance's socket queues (test-scale/instance-kill.test.ts); minimal images lack it.
    ['/usr/bin/ss', 'iproute2', 'the scale-out suite'],
    // Debian's SimpleSAMLphp, a third-party SAML provider (test/sso-simplesamlphp.test.ts), on php's
    // own server; php-xml, php-mbstring, php-curl and php-intl are what it needs beside php-cli.
    ['/usr/share/simplesamlphp/www/saml2/idp/SSOService.php', 'simplesamlphp', 'the SimpleSAMLphp tests'],
    ['/usr/bin/php', 'php-cli', 'the SimpleSAMLphp tests'],
    ['/usr/share/doc/php-xml', 'php-xml', 'the SimpleSAMLphp tests'],
    ['/usr/share/doc/php-mbstring', 'php-mbstring', 'the SimpleSAMLphp tests'],
    ['/usr/share/doc/php-curl', 'php-curl', 'the SimpleSAMLphp tests'],
    ['/usr/share/doc/php-intl', 'php-intl', 'the SimpleSAMLphp tests'],
  ].filter(([path]) => !existsSync(path));
  if (needed.length === 0) return;
  console.log(`Installing Debian ${needed.map(([, pkg, why]) => `${pkg} (${why})`).join(', ')}…`);
  const update = await run('apt-get', ['update', '-qq']);
  const packages = needed.map(([, pkg]) => pkg);
  const install =
    update === 0
      ? await run('apt-get', ['install', '-y', '-qq', ...packages], { env: { DEBIAN_FRONTEND: 'noninteractive' } })
      : 1;
  if (install !== 0) console.error(`Could not install ${packages.join(', ')}; the suites that need them will fail.`);
}

// 1. Install
if (!existsSync(join(root, 'node_modules', '.package-lock.json')) || process.env.CI) {
  // SUITE_SKIP_BUILD: the root `prepare` script would build here, and the build step below does.
  await step('install (npm ci)', () =>
    run('npm', ['ci', '--no-audit', '--no-fund'], { env: { SUITE_SKIP_BUILD: '1' } }),
  );
}
await ensureSystemPackages();

// 2. Build, then every other step side by side (they only read the sources and the build). The e2e suite is
// the longest step by far and nearly CPU-bound on two cores on its own (its browsers take most of that CPU):
// started first, it runs while the second lane goes through everything else, which ends well before it. No
// step waits for a group to end: the run takes the e2e suite's time plus what the second lane takes from it.
await step('build', () => run('npm', ['run', 'build']));
const steps = [];
if (only !== 'unit') steps.push(['e2e chromium (playwright)', (capture) => e2e(capture)]);
steps.push(['locale keys check', (capture) => run('node', ['scripts/check-locales.mjs'], { capture })]);
if (!only) {
  steps.push(
    ['typecheck', (capture) => run('npm', ['run', 'typecheck'], { capture })],
    ['lint', (capture) => run('npx', ['eslint', '.', '--max-warnings=0'], { capture })],
    ['format check', (capture) => run('npx', ['prettier', '--check', '--log-level=warn', '.'], { capture })],
    // docs/module-graph.md is generated from the sources: a layout change without `npm run graph` fails here.
    ['module graph current', (capture) => run('node', ['scripts/module-graph.mjs', '--check'], { capture })],
    // Unused files, dependencies and exports, and packages a workspace imports without declaring (knip.jsonc).
    ['unused code and dependencies (knip)', (capture) => run('npx', ['knip', '--no-progress'], { capture })],
  );
}
steps.push(
  ['contract (vitest)', (capture) => vitest('contract', join(root, 'packages/contract'), { capture })],
  ['web (vitest)', (capture) => vitest('web', join(root, 'apps/web'), { capture })],
);
const server = join(root, 'apps/server');
// Beside another step, a server suite has one worker: as many as the lane it runs in.
const serverWorkers = (capture) => (capture ? ['--maxWorkers=1'] : []);
steps.push([
  'server sqlite (vitest)',
  (capture) => vitest('server-sqlite', server, { capture, extra: serverWorkers(capture) }),
]);
if (only !== 'unit') {
  // Every server test file but those apps/server/test/postgres-suite.ts declares independent of the
  // database (apps/server/vitest.config.ts leaves them out when TEST_DATABASE_URL is set).
  steps.push([
    'server postgresql (vitest)',
    (capture) =>
      vitest('server-postgresql', server, {
        capture,
        extra: serverWorkers(capture),
        wrapper: ['bash', join(root, 'scripts/with-pg.sh')],
      }),
  ]);
}
const scaleOut = [
  'scale-out (vitest)',
  (capture) =>
    vitest('scale-out', join(root, 'apps/server'), { capture, extra: ['--config', 'test-scale/vitest.config.ts'] }),
];
await together(steps, { beside: only === 'unit' ? [] : [scaleOut] });

/** The e2e suite on a free block of ports, counted from its JSON report (flaky tests apart). */
async function e2e(capture) {
  const port = await freePortBlock();
  const workDir = join(root, '.tmp', `e2e-${port}`);
  const status = await run('npx', ['playwright', 'test'], {
    cwd: join(root, 'e2e'),
    env: { E2E_PORT: String(port), E2E_WORK_DIR: workDir },
    capture,
  });
  const report = join(workDir, 'results.json');
  if (!existsSync(report)) return { passed: 0, failed: 1, skipped: 0 };
  const results = JSON.parse(readFileSync(report, 'utf8'));
  const s = results.stats;
  const flaky = playwrightFlaky(results.suites);
  failedPages.push(...playwrightFailedPages(results.suites));
  // A non-zero exit the report does not explain (a crash) is one failure; record() counts the flaky ones.
  const failed = s.unexpected + (status !== 0 && s.unexpected === 0 ? 1 : 0);
  return { passed: s.expected, failed, skipped: s.skipped, flaky };
}

// At most two, each cut short: the summary below stays the output's last screen.
for (const { title, page } of failedPages.slice(0, 2)) {
  // The page's main region when it has one (the skip link and the banner say nothing), without the fence.
  const yaml = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const snapshot = (yaml.includes('- main') ? yaml.slice(yaml.indexOf('- main')) : yaml).trim();
  console.log(`\n--- what the page showed: ${title}`);
  console.log(snapshot.split('\n').slice(0, 40).join('\n') || '(no page snapshot)');
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
