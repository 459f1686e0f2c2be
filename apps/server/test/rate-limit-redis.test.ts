import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, logCapture, type TestApp } from './helpers.js';
import { startRedis, type RedisFixture } from './redis.js';

/** Two servers sharing one real redis-server: shared limits, an outage, and the return. */
let redis: RedisFixture;
let a: TestApp;
let b: TestApp;
const logA = logCapture();

beforeAll(async () => {
  redis = await startRedis();
  a = await createTestApp({ REDIS_URL: redis.url }, { logger: { level: 'info', stream: logA.stream } });
  b = await createTestApp({ REDIS_URL: redis.url });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
});

const login = (t: TestApp, who: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { login: who, password: 'not-the-password' } });

/** Status codes of `n` login attempts for `who`, alternating between the two servers. */
async function attempts(who: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 1) statuses.push((await login(i % 2 ? b : a, who)).statusCode);
  return statuses;
}

const warnings = () => logA.lines.filter((l) => l.includes('Redis unreachable'));

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  await vi.waitUntil(check, { timeout: timeoutMs, interval: 50 }).catch(() => {
    throw new Error(`timed out waiting for ${what}`);
  });
}

describe('rate limits in Redis', () => {
  it('counts the attempts of both servers together (10 per address, the 11th is refused on either)', async () => {
    const statuses = await attempts('shared@contoso.com', 10);
    expect(statuses.every((s) => s === 401 || s === 403)).toBe(true);
    expect(a.app.counters.mode).toBe('shared');
    const [onA, onB] = [await login(a, 'shared@contoso.com'), await login(b, 'shared@contoso.com')];
    expect([onA.statusCode, onB.statusCode]).toEqual([429, 429]);
    expect(Number(onA.headers['retry-after'])).toBeGreaterThan(0);
    expect(onA.json()).toMatchObject({ error_code: 'ERR_RATE_LIMITED' });
  });

  it('while Redis is down: no 5xx, each server limits on its own, one warning; back: shared again', async () => {
    await redis.stop();
    const during = await attempts('outage@contoso.com', 30);
    expect(during.filter((s) => s >= 500)).toEqual([]);
    // Each server counted its own 15: both refuse past their own 10.
    expect(during.filter((s) => s === 429).length).toBe(10);
    expect(a.app.counters.mode).toBe('local');
    expect(warnings().length).toBe(1);
    expect(a.app.counters.fallbacks).toBe(1);

    await redis.start();
    await until(() => a.app.counters.mode === 'shared' && b.app.counters.mode === 'shared', 'Redis to be used again');
    expect(logA.lines.some((l) => l.includes('Redis reachable again'))).toBe(true);
    const after = await attempts('back@contoso.com', 12);
    expect(after.slice(0, 10).every((s) => s < 429)).toBe(true);
    expect(after.slice(10)).toEqual([429, 429]);
    expect(warnings().length).toBe(1);
  });

  it('exposes the counters for other limits: hit with a window, reset, shared by the instances', async () => {
    expect(await a.app.counters.hit('test:failures', 60_000)).toMatchObject({ count: 1 });
    const second = await b.app.counters.hit('test:failures', 60_000, 2);
    expect(second.count).toBe(3);
    expect(second.ttlMs).toBeGreaterThan(50_000);
    await b.app.counters.reset('test:failures');
    // Forgotten on both: the next hit starts a new count and a new window.
    const fresh = await a.app.counters.hit('test:failures', 1_000);
    expect(fresh.count).toBe(1);
    expect(fresh.ttlMs).toBeLessThanOrEqual(1_000);
  });
});
