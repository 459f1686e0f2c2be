#!/usr/bin/env node
// `npm run bench`: builds the product, runs every benchmark module and prints one table — figure,
// budget, measured, PASS/FAIL — each figure a ratio against a baseline measured in the same run on this
// machine. Writes the table to bench/results.md (bench/out/ holds the reports: bundle, first loads,
// Lighthouse). Exits 1 when a budget fails.
//   npm run bench                 everything
//   npm run bench -- server       only the modules whose file name contains "server"
//   npm run bench -- --no-build   measure the build already in apps/*/dist
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { killAll, out, repo } from './lib.mjs';

/**
 * Each module's default export is an async function returning rows {figure, budget, measured, pass,
 * note?}. A module listed here that does not exist (yet) is skipped.
 */
const MODULES = [
  'bundle.mjs',
  'lighthouse.mjs',
  'server.mjs',
  'session-check.mjs',
  'enumeration.mjs',
  'file-download.mjs',
  'storage-s3.mjs',
  'scale-out.mjs',
  'lobby.mjs',
  'admin.mjs',
  // Only when named (`npm run bench -- soak`): minutes long, with outages; its table is a section of
  // bench/results.md of its own, kept when the whole run rewrites the file.
  'soak.mjs',
];
const ON_DEMAND = new Set(['soak.mjs']);

const args = process.argv.slice(2);
const only = args.find((a) => !a.startsWith('--'));
mkdirSync(out, { recursive: true });

if (!args.includes('--no-build')) {
  console.log('Building (npm run build; bundle report in bench/out/bundle-report.md)…');
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, BUNDLE_REPORT: join(out, 'bundle-report.md') },
  });
  if (build.status !== 0) process.exit(1);
}

const rows = [];
for (const file of MODULES) {
  if (only ? !file.includes(only) : ON_DEMAND.has(file)) continue;
  const path = join(repo, 'bench', file);
  if (!existsSync(path)) continue;
  console.log(`\n### ${file}`);
  const started = performance.now();
  try {
    const { default: run } = await import(path);
    const got = await run();
    for (const row of got) console.log(`${row.pass ? 'PASS' : 'FAIL'}  ${row.figure}: ${row.measured}`);
    rows.push(...got);
  } catch (error) {
    console.error(error);
    rows.push({ figure: file, budget: 'runs', measured: `error: ${error?.message ?? error}`, pass: false });
  } finally {
    killAll();
  }
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

const cell = (s) => String(s).replaceAll('|', '\\|');
const table = [
  '| figure | budget | measured | result |',
  '|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${cell(r.figure)} | ${cell(r.budget)} | ${cell(r.measured)}${r.note ? ` — ${cell(r.note)}` : ''} | ${r.pass ? 'PASS' : 'FAIL'} |`,
  ),
].join('\n');
const failed = rows.filter((r) => !r.pass).length;
const text = `# Benchmark results\n\n\`npm run bench\`, ${new Date().toISOString().slice(0, 16)} UTC, node ${process.version}, one run on this machine.\n\n${table}\n\n${rows.length - failed} passed, ${failed} failed\n`;
console.log(`\n${table}\n\n${rows.length - failed} of ${rows.length} within budget`);
const resultsFile = join(repo, 'bench/results.md');
// The soak's section (written by bench/soak.mjs itself) survives a whole run.
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
const soak = previous.indexOf('<!-- soak -->');
const soakSection = soak >= 0 ? `\n${previous.slice(soak)}` : '';
if (!only) writeFileSync(resultsFile, `${text}${soakSection}`);
else writeFileSync(join(out, 'results-partial.md'), text);
process.exit(failed ? 1 : 0);
