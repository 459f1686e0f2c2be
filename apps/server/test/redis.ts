import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './smtp.js';

/**
 * Debian's redis-server on a free loopback port, in the foreground, no persistence. stop() and
 * start() again keep the port, so clients configured with `url` see an outage and a return.
 */
export interface RedisFixture {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const BINARY = '/usr/bin/redis-server';

/** Installs redis-server from Debian when missing (the test command does this too). */
function ensureRedisServer(): void {
  if (existsSync(BINARY)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
  if (!existsSync(BINARY)) throw new Error('redis-server is missing and could not be installed');
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.write('PING\r\n');
      socket.once('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedis(): Promise<RedisFixture> {
  ensureRedisServer();
  const port = await freePort();
  let child: ChildProcess | undefined;
  const fixture: RedisFixture = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
      child = spawn(BINARY, args, { stdio: 'ignore' });
      const deadline = Date.now() + 10_000;
      while (!(await answers(port))) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error('redis-server did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await fixture.start();
  return fixture;
}
