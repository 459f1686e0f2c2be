import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import SQLite from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real entry point (src/server.ts) as a process: start-up validation and graceful shutdown. */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'suite-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exit };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('server process', () => {
  it('refuses to start on a wrong configuration, listing every problem, with exit code 2', async () => {
    const run = start({ PORT: 'abc', PUBLIC_URL: 'ftp://x', SESSION_SECRET: 'short' });
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain('PORT');
    expect(run.output()).toContain('PUBLIC_URL');
    expect(run.output()).toContain('SESSION_SECRET');
    expect(run.output()).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('serves, then on SIGTERM finishes and exits 0', async () => {
    const port = await freePort();
    const run = start({ PORT: String(port), HOST: '127.0.0.1' });
    const deadline = Date.now() + 20_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline) {
      healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 200));
    }
    expect(healthy).toBe(true);
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { 'x-request-id': 'trace-0123456789' } });
    expect(res.status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.output()).toContain('shutting down');
    // The request id given by a proxy is the one in the log line.
    expect(run.output()).toContain('"reqId":"trace-0123456789"');
    // No deprecation warning (e.g. Fastify's FSTDEP023) in an operator's log.
    expect(run.output()).not.toMatch(/DeprecationWarning|FSTDEP/);
  });

  it('on SIGTERM with an SMTP server that accepts but never answers: exits 0 and releases the claimed mail', async () => {
    // An SMTP server that takes the connection and says nothing (no greeting): the send hangs.
    const sockets: Socket[] = [];
    let connected: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const silent = createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const smtpPort = (silent.address() as { port: number }).port;
    const port = await freePort();
    const run = start({ PORT: String(port), HOST: '127.0.0.1', SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
    try {
      const deadline = Date.now() + 20_000;
      let res: Response | undefined;
      while (!res && Date.now() < deadline) {
        res = await fetch(`http://127.0.0.1:${port}/api/v2/user`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'hang@contoso.com' }),
        }).catch(() => undefined);
        if (!res) await new Promise((r) => setTimeout(r, 200));
      }
      expect(res?.status).toBe(201);
      await reached; // the outbox worker has claimed the mail and is stuck sending it
      run.child.kill('SIGTERM');
      expect(await run.exit).toBe(0);
      const db = new SQLite(join(dataDir, 'app.db'), { readonly: true });
      const row = db
        .prepare('select sent_at, locked_until, claim_token, attempts from mail_outbox where to_address = ?')
        .get('hang@contoso.com');
      db.close();
      // Released for another instance right away (not after the lease), not counted as a failed try.
      expect(row).toEqual({ sent_at: null, locked_until: 0, claim_token: null, attempts: 0 });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
