import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serverRoot } from '../src/config.js';

/** The checkout whose build is installed. */
const repo = join(serverRoot(), '../..');

/** Every workspace of the root package.json (npm ci needs each one's package.json) and what it ships built. */
const WORKSPACES: Record<string, string[]> = {
  'packages/contract': ['dist'],
  'apps/server': ['dist', 'assets'],
  'apps/web': ['dist'],
  e2e: [],
  bench: [],
};

/** The one native addon among the production dependencies (package-lock: its only install script). */
const NATIVE_ADDON = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

/**
 * A production install of the current build in `dir`, as docs/deploy.md tells an operator to make one:
 * the built folders, the package.json files and package-lock.json, then `npm ci --omit=dev`. Nothing of
 * the checkout's node_modules is reachable from there (a temp dir has no node_modules above it), so a
 * compiled file that imports a dev dependency fails to start. Returns the server's entry file.
 *
 * Offline from the npm cache the checkout's own install filled (--prefer-offline), in seconds. Scripts
 * are not run: the root `prepare` would skip the build anyway (no build tools), and better-sqlite3's
 * install script would compile SQLite again (minutes, no prebuilt binaries can be fetched here); its
 * addon is taken from the checkout's install instead, the same Node and platform.
 */
export async function productionInstall(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(repo, file), join(dir, file));
  for (const [workspace, built] of Object.entries(WORKSPACES)) {
    mkdirSync(join(dir, workspace), { recursive: true });
    copyFileSync(join(repo, workspace, 'package.json'), join(dir, workspace, 'package.json'));
    for (const folder of built) {
      if (!existsSync(join(repo, workspace, folder))) throw new Error(`${workspace}/${folder} missing: build first`);
      cpSync(join(repo, workspace, folder), join(dir, workspace, folder), { recursive: true });
    }
  }
  const args = ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];
  let output = '';
  const child = spawn('npm', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`npm ${args.join(' ')} failed (${code}):\n${output}`);
  mkdirSync(join(dir, NATIVE_ADDON, '..'), { recursive: true });
  copyFileSync(join(repo, NATIVE_ADDON), join(dir, NATIVE_ADDON));
  for (const devOnly of ['vitest', 'typescript', 's3rver', 'tsx']) {
    if (existsSync(join(dir, 'node_modules', devOnly))) throw new Error(`dev dependency ${devOnly} was installed`);
  }
  return join(dir, 'apps/server/dist/src/server.js');
}
