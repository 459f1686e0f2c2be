import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../test/pg-cluster.js';
import { startRedis, type RedisFixture } from '../test/redis.js';
import { codeIn, freePort, startSmtp, type SmtpFixture } from '../test/smtp.js';
import { startS3, type TestS3 } from '../test/s3-server.js';
import { randomBytes } from 'node:crypto';
import { downloadUrl, multipartBody } from '../test/files-helpers.js';
import { Instance, api, startNginx, until } from './cluster.js';
import { productionInstall } from './production-install.js';
import { ssoAcrossInstances } from './sso.js';
import { deviceTrustAcrossInstances } from './device-trust.js';
import { adminAcrossInstances } from './admin.js';

/**
 * The scale-out suite: two built instances with the same settings behind Debian's nginx, on a
 * throwaway PostgreSQL, Debian's redis-server and a real SMTP server, all on loopback. The instances run
 * from a production install of the build (`npm ci --omit=dev`): a runtime import of a dev dependency
 * fails here.
 */
const dir = mkdtempSync(join(tmpdir(), 'suite-scale-'));
let cluster: PgCluster;
let redis: RedisFixture;
let smtp: SmtpFixture;
let smtpDelayMs = 0;
let nginx: { url: string; stop(): Promise<void> };
let a: Instance;
let b: Instance;
let db: pg.Client;
let s3: TestS3;
let adaSession = '';
/** The instances' settings and the production install's server entry (the admin CLI sits beside it). */
let env: Record<string, string>;
let entry: string;
const PASSWORD = 'Correct-Horse-42';

beforeAll(async () => {
  // Installed while the services start.
  const t0 = Date.now();
  let installedAt = 0;
  const installing = productionInstall(join(dir, 'install')).then((entry) => {
    installedAt = Date.now();
    return entry;
  });
  installing.catch(() => undefined);
  cluster = await startPgCluster();
  redis = await startRedis();
  smtp = await startSmtp(0, { delayMs: () => smtpDelayMs });
  s3 = await startS3();
  const [portA, portB] = [await freePort(), await freePort()];
  nginx = await startNginxLater([portA, portB]);
  env = {
    NODE_ENV: 'production',
    PUBLIC_URL: nginx.url,
    DATABASE_URL: cluster.url,
    REDIS_URL: redis.url,
    SMTP_URL: smtp.url,
    MAIL_FROM: '"Suite" <no-reply@suite.test>',
    SESSION_SECRET: 'scale-out-session-secret-0123456789abcdef',
    TRUST_PROXY: '1',
    MAIL_RETRY_BASE_MS: '200',
    LOG_LEVEL: 'warn',
    // The default grace: under load (2 cores shared by every suite) a shorter one can end before the release.
    SHUTDOWN_GRACE_SECONDS: '10',
    ...s3.env,
  };
  const servicesUp = Date.now();
  entry = await installing;
  // What the production install costs the suite: its time, and the part the services' start did not hide.
  console.info(
    `production install (npm ci --omit=dev): ${((installedAt - t0) / 1000).toFixed(1)} s, ` +
      `${(Math.max(0, installedAt - servicesUp) / 1000).toFixed(1)} s of it after the services were up`,
  );
  a = new Instance('a', portA, { ...env, DATA_DIR: join(dir, 'a') }, { entry });
  b = new Instance('b', portB, { ...env, DATA_DIR: join(dir, 'b') }, { entry });
  // One at a time: the first applies the migrations.
  await a.start();
  await b.start();
  // Both instances reachable through the balancer before the first test.
  await until(async () => {
    for (let i = 0; i < 4; i++) {
      const ok = await fetch(`${nginx.url}/api/health/live`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ok) return false;
    }
    return true;
  }, 'the balancer to reach both instances');
  db = await connectDb();
});

/** The test's own view of the database (ignores the termination when the cluster is stopped). */
async function connectDb(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: cluster.url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** nginx is configured with the instances' ports before they listen (it only connects on demand). */
async function startNginxLater(ports: number[]) {
  return startNginx(join(dir, 'nginx'), ports);
}

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await a?.stop('SIGKILL');
  await b?.stop('SIGKILL');
  await nginx?.stop();
  await smtp?.close();
  await redis?.stop();
  await s3?.stop();
  cluster?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** A client address, as nginx would forward it (TRUST_PROXY=1: the right-most entry). */
const from = (ip: string) => ({ 'x-forwarded-for': ip });

async function mailTo(to: string, after = 0) {
  return smtp.waitFor((m) => smtp.messages.indexOf(m) >= after && m.to.includes(to), 15_000);
}

/** Sign-up on `first`, code confirmed on `second`: the confirmation's session. */
async function confirmed(first: string, second: string, email: string): Promise<string> {
  const before = smtp.messages.length;
  const signup = await api(first, 'POST', '/v2/user', { email });
  expect(signup.status).toBe(201);
  const code = codeIn(await mailTo(email, before));
  const confirm = await api(second, 'PUT', '/v2/user/confirm', { token: code, email });
  expect(confirm.status).toBe(200);
  return confirm.body.token as string;
}

const outboxDrained = async () =>
  Number(
    (await db.query('select count(*) as n from mail_outbox where sent_at is null and failed_at is null')).rows[0].n,
  ) === 0;

// First, while both instances run (the suite below stops and kills them).
ssoAcrossInstances(() => ({ a, b, publicUrl: nginx.url, env, entry, dir }));
deviceTrustAcrossInstances(() => ({
  a,
  b,
  smtp,
  outboxDrained,
  ageProofs: async (email: string) => {
    await db.query('update sessions set proved_at = 0 where user_id = (select id from users where email = $1)', [
      email,
    ]);
  },
}));

adminAcrossInstances(() => ({ a, b, smtp, db: () => db }));

describe('two instances behind nginx', () => {
  it('sign-up on one instance, code, registration and login on the other; the session is valid on both', async () => {
    const email = 'ada@contoso.com';
    const token = await confirmed(a.url, b.url, email);
    const register = await api(
      a.url,
      'PUT',
      '/v2/user/complete-register',
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        password: PASSWORD,
        password_confirmation: PASSWORD,
        accepted_terms: { version: 1 },
      },
      bearer(token),
    );
    expect(register.status).toBe(200);
    const login = await api(b.url, 'POST', '/auth/login', { login: email, password: PASSWORD });
    expect(login.status).toBe(200);
    const session = login.body.token as string;
    adaSession = session;
    for (const base of [a.url, b.url, nginx.url]) {
      const me = await api(base, 'GET', '/v2/user/me', undefined, bearer(session));
      expect({
        base,
        status: me.status,
        email: (me.body.user as { email?: string } | undefined)?.email ?? me.body.email,
      }).toMatchObject({ base, status: 200 });
    }
  });

  it('the balancer as docs/deploy.md sets it up: no nginx version sent, /metrics not proxied', async () => {
    const health = await fetch(`${nginx.url}/nginx-health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('server')).toBe('nginx');
    const metrics = await fetch(`${nginx.url}/metrics`);
    expect(metrics.status).toBe(404);
    expect(await metrics.text()).not.toMatch(/nginx\/\d/);
  });

  it('upload through one instance, byte-exact download and a Range request through the other', async () => {
    const content = randomBytes(3 * 1024 * 1024);
    const body = multipartBody(content, 'form-data; name="file"; filename="report.bin"', 'application/octet-stream');
    const up = await fetch(`${a.url}/api/files`, {
      method: 'POST',
      headers: { ...bearer(adaSession), ...body.headers },
      body: body.payload,
    });
    expect(up.status).toBe(201);
    const fileId = ((await up.json()) as { _id: string })._id;
    const shared = await api(a.url, 'POST', `/files/${fileId}/shares`, {}, bearer(adaSession));
    const key = shared.body.share_key as string;
    const whole = await fetch(`${b.url}${downloadUrl(fileId, key)}`);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);
    const part = await fetch(`${b.url}${downloadUrl(fileId, key)}`, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(content.subarray(1000, 2000))).toBe(true);
  });

  it('SIGTERM during an upload: the instance exits 0 and leaves no orphan object', async () => {
    const body = multipartBody(randomBytes(4 * 1024 * 1024), 'form-data; name="file"; filename="cut.bin"');
    let sent = 0;
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    // Half the upload, then the client stalls: the shutdown has to cut it.
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= body.payload.length / 2) {
          release();
          await new Promise((r) => setTimeout(r, 30_000));
          controller.close();
          return;
        }
        const chunk = body.payload.subarray(sent, sent + 256 * 1024);
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const uploading = fetch(`${b.url}/api/files`, {
      method: 'POST',
      headers: { ...bearer(adaSession), ...body.headers, 'content-length': String(body.payload.length) },
      body: stream,
      duplex: 'half',
    } as RequestInit).then(
      (r) => r.status,
      () => 0,
    );
    await stalled;
    expect(await b.stop('SIGTERM')).toBe(0);
    expect(await uploading).not.toBe(201);
    const rows = await db.query('select storage_key from files order by storage_key');
    expect(await s3.objectKeys()).toEqual(rows.rows.map((r: { storage_key: string }) => r.storage_key).sort());
    await b.start();
  });

  it('shares rate limits across instances (30 guests per address in 10 minutes, counted on both)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await api(
        i % 2 ? b.url : a.url,
        'POST',
        '/guest',
        { name: `Guest ${i}`, accepted_terms: { version: 1 } },
        from('198.51.100.7'),
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200 || s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    const onA = await api(
      a.url,
      'POST',
      '/guest',
      { name: 'Late', accepted_terms: { version: 1 } },
      from('198.51.100.7'),
    );
    expect(onA.status).toBe(429);
  });

  it('50 parallel sign-ups spread over both instances: exactly 50 accounts and exactly 50 mails', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `crowd${i}@contoso.com`);
    const before = smtp.messages.length;
    const answers = await Promise.all(
      emails.map((email, i) => api(i % 2 ? b.url : a.url, 'POST', '/v2/user', { email }, from(`203.0.113.${i + 1}`))),
    );
    expect(answers.filter((r) => r.status !== 201)).toEqual([]);
    const accounts = await db.query("select count(*) as n from users where email like 'crowd%@contoso.com'");
    expect(Number(accounts.rows[0].n)).toBe(50);
    await until(outboxDrained, 'the outbox to drain', 30_000);
    const mailed = smtp.messages.slice(before).flatMap((m) => m.to);
    expect([...mailed].sort()).toEqual([...emails].sort());
  });

  it('Redis stopped: no login or sign-up answers 5xx; Redis back: limits are shared again', async () => {
    await redis.stop();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push(
          (await api(nginx.url, 'POST', '/auth/login', { login: 'ada@contoso.com', password: PASSWORD })).status,
        );
        statuses.push(
          (await api(nginx.url, 'POST', '/v2/user', { email: `redisless${i}@contoso.com` }, from(`192.0.2.${i + 1}`)))
            .status,
        );
      }
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      const health = await api(a.url, 'GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ redis: 'degraded', database: 'ok' });
    } finally {
      await redis.start();
    }
    await until(async () => {
      const [ha, hb] = await Promise.all([api(a.url, 'GET', '/health'), api(b.url, 'GET', '/health')]);
      return ha.body.redis === 'ok' && hb.body.redis === 'ok';
    }, 'both instances to use Redis again');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (
          await api(
            i % 2 ? b.url : a.url,
            'POST',
            '/guest',
            { name: `G${i}`, accepted_terms: { version: 1 } },
            from('198.51.100.99'),
          )
        ).status,
      );
    }
    expect(statuses.slice(0, 30).every((s) => s < 300)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('PostgreSQL stopped: 503 with Retry-After, no 500; back: sign-ups succeed within 10 s with no instance restarted', async () => {
    const pids = [a.child?.pid, b.child?.pid];
    cluster.stop();
    let answers: Answer[] = [];
    try {
      answers = await Promise.all([
        api(nginx.url, 'POST', '/v2/user', { email: 'down1@contoso.com' }, from('192.0.2.200')),
        api(nginx.url, 'POST', '/auth/login', { login: 'ada@contoso.com', password: PASSWORD }),
        api(nginx.url, 'POST', '/v2/user/forgot-password', { email: 'ada@contoso.com' }),
        api(nginx.url, 'GET', '/health'),
      ]);
    } finally {
      cluster.start();
    }
    for (const res of answers) {
      expect({
        status: res.status,
        code: res.body.error_code,
        retryAfter: Number(res.headers.get('retry-after')) > 0,
      }).toEqual({
        status: 503,
        code: 'ERR_SERVICE_UNAVAILABLE',
        retryAfter: true,
      });
    }
    let i = 0;
    const signUp = async () =>
      (await api(nginx.url, 'POST', '/v2/user', { email: `back${i++}@contoso.com` }, from('192.0.2.201'))).status;
    await expect.poll(signUp, { timeout: 10_000, interval: 200 }).toBe(201);
    expect([a.child?.pid, b.child?.pid]).toEqual(pids);
    await db.end().catch(() => undefined);
    db = await connectDb();
  });

  it('SIGTERM during outbox delivery: no mail lost or doubled', async () => {
    // A slow relay: each mail takes 400 ms to be accepted, so instance a is mid-delivery when stopped.
    smtpDelayMs = 400;
    const emails = Array.from({ length: 8 }, (_, i) => `slow${i}@contoso.com`);
    const before = smtp.messages.length;
    try {
      for (const [i, email] of emails.entries()) {
        expect((await api(a.url, 'POST', '/v2/user', { email }, from(`192.0.2.${100 + i}`))).status).toBe(201);
      }
      expect(await a.stop('SIGTERM')).toBe(0);
      // b delivers what a released (and what a never got to).
      await until(outboxDrained, 'the other instance to deliver the rest', 30_000).catch(async (error: unknown) => {
        const stuck = await db.query(
          'select to_address, attempts, locked_until, claim_token, next_attempt_at, last_error from mail_outbox where sent_at is null',
        );
        throw new Error(`${String(error)}: ${JSON.stringify(stuck.rows)} now=${Date.now()}\n${a.output.slice(-3000)}`);
      });
    } finally {
      smtpDelayMs = 0;
    }
    // Each once (mails of earlier tests may still arrive meanwhile).
    const mailed = smtp.messages
      .slice(before)
      .flatMap((m) => m.to)
      .filter((to) => to.startsWith('slow'));
    expect([...mailed].sort()).toEqual([...emails].sort());
    await a.start();
  });

  it('one instance killed with SIGKILL mid-traffic: the balancer keeps every request succeeding', async () => {
    const statuses: number[] = [];
    const traffic = (async () => {
      for (let i = 0; i < 60; i++) {
        statuses.push((await api(nginx.url, 'GET', i % 2 ? '/config' : '/health')).status);
      }
    })();
    await until(() => statuses.length >= 20, 'traffic to flow');
    await a.stop('SIGKILL');
    await traffic;
    expect(statuses.length).toBe(60);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});
