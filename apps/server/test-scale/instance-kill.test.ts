import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPgCluster, type PgCluster } from '../test/pg-cluster.js';
import { freePort } from '../test/smtp.js';
import { Instance, startNginx, until } from './cluster.js';

/**
 * An instance SIGKILLed with requests in flight (the soak's 502s): behind the balancer of
 * docs/deploy.md no client sees a 5xx other than 503 with Retry-After. What nginx may send again (GET,
 * HEAD, PUT, DELETE) goes to the other instance; a POST it already sent gets nginx's own 503.
 */
const dir = mkdtempSync(join(tmpdir(), 'suite-kill-'));
let cluster: PgCluster;
let nginx: { url: string; stop(): Promise<void> };
let a: Instance;
let b: Instance;

beforeAll(async () => {
  cluster = await startPgCluster();
  const ports = [await freePort(), await freePort()];
  nginx = await startNginx(join(dir, 'nginx'), ports, { pinnable: true });
  const env = {
    NODE_ENV: 'production',
    PUBLIC_URL: nginx.url,
    DATABASE_URL: cluster.url,
    SESSION_SECRET: 'instance-kill-session-secret-0123456789abcdef',
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
  };
  [a, b] = ports.map((port, i) => new Instance(`instance ${i}`, port, { ...env, DATA_DIR: join(dir, `d${i}`) })) as [
    Instance,
    Instance,
  ];
  // One at a time: the first applies the migrations.
  await a.start();
  await b.start();
});

afterAll(async () => {
  await a?.stop('SIGKILL');
  await b?.stop('SIGKILL');
  await nginx?.stop();
  cluster?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Requests waiting unread in the sockets of the process listening on `port` (`ss`: Recv-Q > 0). */
function unreadRequests(port: number): number {
  const out = execFileSync('ss', ['-Htn', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => Number(line.trim().split(/\s+/)[0]))
    .filter((queued) => queued > 0).length;
}

describe('an instance killed with requests in flight', () => {
  it('GET and PUT go to the other instance, a POST already sent is a 503 with Retry-After, never a 502', async () => {
    const pid = a.child?.pid;
    if (!pid) throw new Error('instance 0 is not running');
    // Stopped, not yet dead: the kernel still accepts nginx's connections and queues the requests.
    process.kill(pid, 'SIGSTOP');
    const first = { 'x-suite-test-instance': '0+', 'content-type': 'application/json' };
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${nginx.url}/api${path}`, {
        method,
        headers: first,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then(async (res) => ({
        method,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        instance: res.headers.get('x-suite-instance'),
        body: (await res.json().catch(() => ({}))) as { error_code?: string },
      }));
    const answers = Promise.all([
      ...Array.from({ length: 4 }, () => send('GET', '/health')),
      ...Array.from({ length: 4 }, () =>
        send('PUT', '/v2/user/confirm', { email: 'nobody@contoso.com', token: '000000' }),
      ),
      ...Array.from({ length: 4 }, () => send('POST', '/auth/login', { login: 'nobody@contoso.com', password: 'x' })),
    ]);
    // All twelve sit in the stopped instance's sockets: in flight.
    await until(() => unreadRequests(a.port) >= 12, 'the requests to reach the stopped instance', 20_000);
    process.kill(pid, 'SIGKILL');
    const got = await answers;
    await a.exited;

    // No 5xx but 503, and every 503 is the API's own, with Retry-After.
    expect(got.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    for (const r of got.filter((x) => x.status === 503)) {
      expect(r.retryAfter).toMatch(/^[1-9]\d*$/);
      expect(r.body.error_code).toBe('ERR_SERVICE_UNAVAILABLE');
    }
    // Sent again to the other instance and answered by it: GET and PUT (nginx's idempotent methods).
    const other = `127.0.0.1:${b.port}`;
    for (const r of got.filter((x) => x.method !== 'POST')) {
      expect(r.status).toBeLessThan(500);
      expect(r.instance).toContain(other);
    }
    // A POST already sent is never sent twice by nginx: the client is told to retry.
    expect(got.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([503, 503, 503, 503]);

    // The instance back: requests to it are answered by it again.
    await a.start();
    const back = await send('GET', '/health');
    expect(back.status).toBe(200);
  });
});
