import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './smtp.js';

/**
 * A PostgreSQL cluster of this test's own (Debian's binaries, as scripts/with-pg.sh starts one), on a
 * free loopback port: stop() and start() keep the port and the data, so connected servers see an
 * outage and a return.
 */
export interface PgCluster {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

function binDir(): string {
  const find = () =>
    existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(a) - Number(b))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
          .filter((d) => existsSync(join(d, 'initdb')))
          .pop()
      : undefined;
  let dir = find();
  if (!dir) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env });
    dir = find();
  }
  if (!dir) throw new Error('PostgreSQL server binaries are missing and could not be installed');
  return dir;
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'suite-pgc-'));
  if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  const port = await freePort();
  const asPg = (cmd: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  asPg('initdb', ['-A', 'trust', '--no-sync', '-U', 'postgres', '-D', join(dir, 'data')]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => void asPg('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-o', options, 'start']),
    // Fast shutdown: open connections are terminated, as when the server is restarted or fails over.
    stop: () => void asPg('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']),
    destroy() {
      try {
        asPg('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
