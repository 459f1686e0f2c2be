#!/usr/bin/env node
// Writes docs/module-graph.md: the module graph of the server and of the web app as Mermaid flowcharts
// (GitHub renders them), computed by dependency-cruiser from the sources. `npm run graph` after a
// change of layout; `--print` writes to stdout instead, `--check` compares with the file (exit 1 when it
// is out of date: a step of npm test) and fails on any import circle between files, type-only and lazy
// imports included (import-x/no-cycle skips those); `--root DIR` reads another checkout.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const root = args.includes('--root') ? resolve(args[args.indexOf('--root') + 1]) : repo;
const depcruise = join(repo, 'node_modules', '.bin', 'depcruise');

/** One node per server module, per plugin/job/db/emails folder and per top-level file; one per web feature. */
const GRAPHS = [
  {
    title: 'Server (apps/server)',
    cwd: 'apps/server',
    sources: ['src', 'bin'],
    collapse: '^(src/(modules/[^/]+|plugins|jobs|db|emails)|bin)/',
  },
  {
    title: 'Web app (apps/web/src)',
    cwd: 'apps/web',
    sources: ['src'],
    collapse: '^src/(features/[^/]+|components|lib|app|locales|styles)/',
    // The router loads the screens the contract's route table names through import.meta.glob, which
    // dependency-cruiser does not read: those edges are added from the table (its `screen` strings).
    globbed: { from: 'src/app/routes.ts', table: 'packages/contract/src/pages.ts' },
  },
];

/** The edges a graph's `globbed` stands for: [from, to] source paths. */
function globEdges({ globbed }) {
  if (!globbed) return [];
  const table = readFileSync(join(root, globbed.table), 'utf8');
  const screens = new Set([...table.matchAll(/'((?:features|app)\/[\w/-]+)'/g)].map((m) => `src/${m[1]}.tsx`));
  return [...screens].map((to) => [globbed.from, to]);
}

/** dependency-cruiser's modules, each with its dependencies' resolved paths, plus the globbed edges. */
async function modules(graph, collapse) {
  const { stdout: out } = await cruise({ ...graph, collapse });
  const list = JSON.parse(out).modules.map((m) => ({
    source: m.source,
    deps: m.dependencies.filter((d) => !d.coreModule).map((d) => d.resolved),
  }));
  const collapsed = (path) => {
    const match = collapse ? new RegExp(collapse).exec(path) : null;
    return match ? match[0] : path;
  };
  for (const [from, to] of globEdges(graph)) list.find((m) => m.source === collapsed(from))?.deps.push(collapsed(to));
  return list;
}

function cruise({ cwd, sources, collapse }) {
  return promisify(execFile)(
    depcruise,
    [
      ...sources,
      '--no-config',
      '--ts-pre-compilation-deps',
      '--ts-config',
      'tsconfig.json',
      '--exclude',
      '(\\.test\\.tsx?|\\.d\\.ts|test-setup\\.ts|testing\\.tsx)$',
      '--include-only',
      `^(${sources.join('|')})/`,
      ...(collapse ? ['--collapse', collapse] : []),
      '--output-type',
      'json',
    ],
    { cwd: join(root, cwd), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
  );
}

/**
 * Import circles between files, counting every kind of import: type-only and lazy (`import()`) ones too,
 * which the linter's import-x/no-cycle does not follow. Each circle once, as its files in order.
 */
async function cycles(spec) {
  const { cwd } = spec;
  const graph = new Map();
  for (const module of await modules(spec))
    graph.set(
      module.source,
      module.deps.filter((d) => d !== module.source),
    );
  const found = new Map();
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const visit = (node) => {
    state.set(node, 1);
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 1) {
        const circle = path.slice(path.indexOf(next));
        found.set(
          [...circle].sort().join(' '),
          [...circle, next].map((f) => `${cwd}/${f}`),
        );
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 2);
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return [...found.values()];
}

async function edges(spec) {
  const name = (path) => path.replace(/^src\//, '').replace(/\/$/, '');
  const pairs = new Set();
  const nodes = new Set();
  for (const module of await modules(spec, spec.collapse)) {
    if (/\.(css|json)$/.test(module.source)) continue;
    nodes.add(name(module.source));
    for (const dep of module.deps) {
      if (/\.(css|json)$/.test(dep) || dep === module.source) continue;
      pairs.add(`${name(module.source)}\t${name(dep)}`);
    }
  }
  return { nodes: [...nodes].sort(), pairs: [...pairs].sort().map((p) => p.split('\t')) };
}

function mermaid({ nodes, pairs }) {
  const id = (n) => n.replace(/[^A-Za-z0-9]/g, '_');
  const lines = ['```mermaid', 'flowchart LR'];
  for (const n of nodes) lines.push(`  ${id(n)}["${n}"]`);
  for (const [from, to] of pairs) lines.push(`  ${id(from)} --> ${id(to)}`);
  lines.push('```');
  return lines.join('\n');
}

// Both graphs at once (each is a depcruise process): the check stays quick.
const sections = (await Promise.all(GRAPHS.map(edges))).map((found, i) => {
  const graph = GRAPHS[i];
  const list = found.pairs.map(([from, to]) => `- ${from} → ${to}`).join('\n');
  return `## ${graph.title}\n\n${mermaid(found)}\n\n<details><summary>The same edges as a list</summary>\n\n${list}\n\n</details>\n`;
});

const text = `# Module graph

Generated by \`npm run graph\` (scripts/module-graph.mjs, dependency-cruiser) from the sources: one node per
server module (\`modules/<m>\`, reached through its entry file), per folder of plugins, jobs, db and emails,
and per top-level file; on the web one node per feature, and the shared \`components\`, \`lib\`, \`app\`.
Do not edit by hand: run \`npm run graph\` after changing the layout. See docs/architecture.md.

${sections.join('\n')}`;

const file = join(root, 'docs', 'module-graph.md');
if (args.includes('--print')) process.stdout.write(text);
else if (args.includes('--check')) {
  const circles = (await Promise.all(GRAPHS.map(cycles))).flat();
  for (const circle of circles) console.error(`import circle: ${circle.join(' → ')}`);
  if (circles.length) process.exit(1);
  if (readFileSync(file, 'utf8') !== text) {
    console.error('docs/module-graph.md is out of date with the sources: run `npm run graph` and commit it.');
    process.exit(1);
  }
  console.log('docs/module-graph.md matches the sources.');
} else writeFileSync(join(repo, 'docs', 'module-graph.md'), text);
