// Soak with faults (§5), `npm run bench -- soak` only (never part of the whole run, nor of
// npm test): two built instances behind the scale-out suite's nginx (apps/server/test-scale/cluster.ts)
// on a throwaway PostgreSQL, Redis, s3rver and a counting SMTP server (the tests' own fixtures), and
// SOAK_COUNT (or --count=N; default 2000) simulated people through the whole journey at concurrency
// SOAK_CONCURRENCY (default 50), each from one of a spread of client addresses (X-Forwarded-For, the
// instances trust nginx and the client's own entry: TRUST_PROXY=2):
//   sign-up → code from the mail → confirm → register → login → /me → upload (to one instance) →
//   share → download through the other instance → logout.
// Meanwhile it stops PostgreSQL, Redis, one instance (SIGKILL, then a restart), the SMTP server and
// s3rver, SOAK_OUTAGE_S seconds each (default 7), one after the other. Clients honour Retry-After (503,
// 429) and retry a refused connection or a 502 after a second, as a person pressing again would.
// Prints per phase: requests, answers by status class, p50/p99; and the end checks. The table goes into
// bench/results.md (its own section, kept when the whole bench rewrites the file).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { repo, sleep } from './lib.mjs';

const argCount = process.argv.find((a) => a.startsWith('--count='))?.slice('--count='.length);
const COUNT = Number(argCount ?? process.env.SOAK_COUNT ?? 2000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 50);
const OUTAGE_MS = Number(process.env.SOAK_OUTAGE_S ?? 7) * 1000;
const PASSWORD = 'Soak-Horse-42';
/** A step gives up after this long (its retries included): the journey then counts as failed. */
const STEP_DEADLINE_MS = 180_000;
const FILE_BYTES = 64 * 1024;

const suiteModule = (path) => tsImport(pathToFileURL(join(repo, 'apps/server', path)).href, import.meta.url);

/** Requests by phase: status classes and latencies. */
const phases = new Map();
let phase = 'warm-up';
const phaseOrder = [];
function setPhase(name) {
  phase = name;
  if (!phaseOrder.includes(name)) phaseOrder.push(name);
}
function record(at, status, ms) {
  let p = phases.get(at);
  if (!p) phases.set(at, (p = { n: 0, classes: {}, ms: [] }));
  p.n++;
  const cls = status === 0 ? 'conn' : `${Math.floor(status / 100)}xx`;
  p.classes[cls] = (p.classes[cls] ?? 0) + 1;
  if (status >= 500 && status !== 503) totals.bad5xx.push(`${status} ${at}`);
  p.ms.push(ms);
}
const totals = { bad5xx: [], retries: 0 };

const pct = (xs, q) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * One request of a step, retried as a client that honours Retry-After would: 503/429 after Retry-After
 * (at most 15 s), a refused connection or nginx's 502/504 after 1 s; any other answer is returned.
 */
async function call(url, init, okStatuses, onSend = () => undefined) {
  const deadline = Date.now() + STEP_DEADLINE_MS;
  for (;;) {
    const at = phase;
    onSend();
    const t0 = performance.now();
    let res;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    } catch {
      record(at, 0, performance.now() - t0);
      if (Date.now() > deadline) throw new Error(`${init.method ?? 'GET'} ${url}: no connection`);
      totals.retries++;
      await sleep(1000);
      continue;
    }
    const body = Buffer.from(await res.arrayBuffer().catch(() => new ArrayBuffer(0)));
    record(at, res.status, performance.now() - t0);
    if (okStatuses.includes(res.status)) return { status: res.status, body };
    const retryable = [429, 502, 503, 504].includes(res.status);
    if (!retryable || Date.now() > deadline) {
      throw new Error(
        `${init.method ?? 'GET'} ${new URL(url).pathname}: ${res.status} ${body.toString().slice(0, 200)}`,
      );
    }
    totals.retries++;
    const after = Number(res.headers.get('retry-after'));
    await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 15) * 1000 : 1000);
  }
}

export default async function run() {
  const { Instance, startNginx, until } = await suiteModule('test-scale/cluster.ts');
  const { startPgCluster } = await suiteModule('test/pg-cluster.ts');
  const { startRedis } = await suiteModule('test/redis.ts');
  const { startSmtp, freePort, codeIn } = await suiteModule('test/smtp.ts');
  const { startS3 } = await suiteModule('test/s3-server.ts');
  const { multipartBody, downloadUrl } = await suiteModule('test/files-helpers.ts');

  const work = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const cluster = await startPgCluster();
  const redis = await startRedis();
  // The counting SMTP server: every SMTP transaction it accepted, across its restarts (same port), with
  // the phase it arrived in.
  const mails = [];
  const waiters = new Set();
  const onMail = () => {
    for (const w of waiters) w();
  };
  let smtp;
  const smtpPort = await freePort();
  const startMail = async () => {
    smtp = await startSmtp(smtpPort);
    const push = smtp.messages.push.bind(smtp.messages);
    smtp.messages.push = (...m) => {
      mails.push(...m.map((mail) => ({ ...mail, phase })));
      const n = push(...m);
      onMail();
      return n;
    };
  };
  await startMail();
  const s3 = await startS3();
  const ports = [await freePort(), await freePort()];
  const nginx = await startNginx(join(work, 'nginx'), ports);
  const env = {
    NODE_ENV: 'production',
    PUBLIC_URL: nginx.url,
    DATABASE_URL: cluster.url,
    REDIS_URL: redis.url,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: '"Suite" <no-reply@suite.test>',
    SESSION_SECRET: 'soak-session-secret-0123456789abcdef0123',
    // nginx and the simulated client's own X-Forwarded-For entry: each person has an address.
    TRUST_PROXY: '2',
    MAIL_RETRY_BASE_MS: '500',
    LOG_LEVEL: 'error',
    ...s3.env,
  };
  const instances = ports.map(
    (port, i) => new Instance(`instance ${i}`, port, { ...env, DATA_DIR: join(work, `d${i}`) }),
  );
  // The end checks' own connection, opened after the outages (PostgreSQL is stopped on the way).
  const db = new pg.Client({ connectionString: cluster.url });
  db.on('error', () => undefined);
  try {
    for (const instance of instances) await instance.start();

    const addresses = Math.max(50, Math.ceil(COUNT / 5));
    const clientIp = (i) => {
      const n = i % addresses;
      return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    };
    const asked = new Map();
    /** Sign-up requests sent per address, retries included: each may have queued a code mail. */
    const signupsSent = new Map();
    const waitCode = async (email) => {
      const deadline = Date.now() + STEP_DEADLINE_MS;
      for (;;) {
        const got = mails.filter((m) => m.to.includes(email));
        if (got.length >= (asked.get(email) ?? 1)) return codeIn(got.at(-1));
        if (Date.now() > deadline) throw new Error(`no code mail for ${email}`);
        await new Promise((resolve) => {
          const w = () => (waiters.delete(w), resolve());
          waiters.add(w);
          setTimeout(w, 1000);
        });
      }
    };

    const uploaded = new Map();
    const failures = [];
    let done = 0;
    async function journey(i) {
      const email = `soak-${i}-${randomBytes(3).toString('hex')}@soak-${i % 97}.test`;
      const api = (path, method, body, ok, extra = {}, onSend = undefined) =>
        call(
          `${nginx.url}/api${path}`,
          {
            method,
            headers: {
              'x-forwarded-for': clientIp(i),
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              ...extra,
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          },
          ok,
          onSend,
        ).then((r) => ({ status: r.status, json: r.body.length ? JSON.parse(r.body.toString()) : {} }));
      // 409: the sign-up was written before an outage cut its answer; a new code was mailed (spec §8).
      const signup = await api('/v2/user', 'POST', { email }, [201, 409], {}, () =>
        signupsSent.set(email, (signupsSent.get(email) ?? 0) + 1),
      );
      asked.set(email, (asked.get(email) ?? 0) + 1);
      void signup;
      let confirm;
      for (;;) {
        const code = await waitCode(email);
        try {
          confirm = await api('/v2/user/confirm', 'PUT', { token: code, email }, [200]);
          break;
        } catch (error) {
          // A code replaced meanwhile (a retried sign-up mailed a new one): take the newest and try again.
          if (!/INVALID_TOKEN/.test(String(error))) throw error;
          await sleep(500);
        }
      }
      const welcome = { authorization: `Bearer ${confirm.json.token}` };
      const registered = await api(
        '/v2/user/complete-register',
        'PUT',
        {
          first_name: 'Soak',
          last_name: `Person ${i}`,
          password: PASSWORD,
          password_confirmation: PASSWORD,
          accepted_terms: { version: 1 },
        },
        [200],
        welcome,
      );
      void registered;
      const login = await api('/auth/login', 'POST', { login: email, password: PASSWORD }, [200]);
      const auth = { authorization: `Bearer ${login.json.token}` };
      await api('/v2/user/me', 'GET', undefined, [200], auth);
      // Upload to one instance, download through the other (the bytes live in the shared object store).
      const content = randomBytes(FILE_BYTES);
      const body = multipartBody(
        content,
        `form-data; name="file"; filename="soak-${i}.bin"`,
        'application/octet-stream',
      );
      const [up, down] = i % 2 ? [instances[0], instances[1]] : [instances[1], instances[0]];
      const file = await call(
        `${up.url}/api/files`,
        { method: 'POST', headers: { ...auth, ...body.headers, 'x-forwarded-for': clientIp(i) }, body: body.payload },
        [200, 201],
      );
      const fileId = JSON.parse(file.body.toString())._id;
      const shared = await api(`/files/${fileId}/shares`, 'POST', {}, [200, 201], auth);
      const got = await call(
        `${down.url}${downloadUrl(fileId, shared.json.share_key)}`,
        { headers: { 'x-forwarded-for': clientIp(i) } },
        [200],
      );
      uploaded.set(
        fileId,
        createHash('sha256').update(content).digest('hex') === createHash('sha256').update(got.body).digest('hex'),
      );
      await api('/auth/logout', 'POST', undefined, [200], auth);
      done++;
    }

    let next = 0;
    const t0 = performance.now();
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (next < COUNT) {
        const i = next++;
        await journey(i).catch((error) => failures.push(`${i}: ${error.message}`));
      }
    });

    // The faults, one after the other, each for OUTAGE_MS, with a steady gap between them.
    const gap = () => sleep(Math.max(3000, OUTAGE_MS / 2));
    const outage = async (name, down, up) => {
      setPhase(`${name} down`);
      await down();
      await sleep(OUTAGE_MS);
      await up();
      setPhase(`after ${name}`);
      await gap();
    };
    const faults = (async () => {
      setPhase('warm-up');
      await sleep(5000);
      await outage(
        'PostgreSQL',
        async () => cluster.stop(),
        async () => cluster.start(),
      );
      await outage(
        'Redis',
        () => redis.stop(),
        () => redis.start(),
      );
      await outage(
        'instance 0 (SIGKILL)',
        () => instances[0].stop('SIGKILL'),
        () => instances[0].start(),
      );
      await outage(
        'SMTP',
        async () => void smtp.close(),
        () => startMail(),
      );
      await outage(
        's3rver',
        () => s3.pause(),
        () => s3.resume(),
      );
      setPhase('steady');
    })();
    await Promise.all([...workers, faults]);
    const seconds = (performance.now() - t0) / 1000;

    // End checks, once the outbox had its chance to drain (bounded).
    await db.connect();
    const one = async (q) => Number((await db.query(q)).rows[0].n);
    const stuckQuery = 'select count(*) as n from mail_outbox where sent_at is null and failed_at is null';
    await until(async () => (await one(stuckQuery)) === 0, 'the outbox to drain', 120_000).catch(() => undefined);
    const stuck = await one(stuckQuery);
    const accounts = await one(
      "select count(*) as n from users where email like 'soak-%' and registered_at is not null",
    );
    // SMTP is at-least-once (RFC 5321 §6.1): a mail whose 250 was lost, or whose delivery could not be
    // recorded, is sent again with the same Message-ID (its outbox row), and receivers that deduplicate
    // by Message-ID show it once. So the budget is on distinct messages: none lost (every address got
    // its code), none doubled (no code in two distinct messages), and no more distinct messages than
    // sign-up requests sent (a sign-up sent again after a lost answer is 409 with a new code: asked for).
    // Raw SMTP transactions beyond the distinct messages are reported, with the phase they arrived in.
    const byAddress = new Map();
    for (const m of mails) {
      for (const to of m.to) {
        const got = byAddress.get(to) ?? new Map();
        byAddress.set(to, got);
        got.set(m.messageId, [...(got.get(m.messageId) ?? []), m]);
      }
    }
    const lost = [...asked.keys()].filter((email) => !byAddress.has(email)).length;
    const distinct = [...byAddress.values()].reduce((n, got) => n + got.size, 0);
    const doubled = [...byAddress.values()].filter((got) => {
      const codes = [...got.values()].map((copies) => codeIn(copies[0]));
      return new Set(codes).size !== codes.length;
    }).length;
    const unasked = [...byAddress].filter(([to, got]) => got.size > (signupsSent.get(to) ?? 0)).length;
    const noId = mails.filter((m) => !m.messageId).length;
    const rawExtra = new Map();
    for (const got of byAddress.values()) {
      for (const copies of got.values()) {
        for (const copy of copies.slice(1)) {
          const when = `first in ${copies[0].phase}, again in ${copy.phase}`;
          rawExtra.set(when, (rawExtra.get(when) ?? 0) + 1);
        }
      }
    }
    const rawDuplicates = [...rawExtra.values()].reduce((a, b) => a + b, 0);
    const bytesOk = [...uploaded.values()].filter(Boolean).length;
    const keys = new Set((await db.query('select storage_key from files')).rows.map((r) => r.storage_key));
    const objects = await s3.objectKeys();
    // An upload cut by the SIGKILL may leave its object behind, named by its quota hold: the server's
    // hourly purge deletes it once the hold expires (6 h; modules/files/abandoned.ts). Only an object
    // that neither a file row nor a hold names would stay for ever.
    const holds = new Set((await db.query('select id from file_reservations')).rows.map((r) => r.id));
    const unnamed = objects.filter((k) => !keys.has(k));
    const orphans = unnamed.filter((k) => !holds.has(k)).length;
    const awaitingPurge = unnamed.length - orphans;

    const lines = [
      '| phase | requests | 2xx | 4xx | 5xx | no connection | p50 | p99 |',
      '|---|---|---|---|---|---|---|---|',
    ];
    for (const name of phaseOrder) {
      const p = phases.get(name);
      if (!p) continue;
      const c = (k) => p.classes[k] ?? 0;
      lines.push(
        `| ${name} | ${p.n} | ${c('2xx')} | ${c('4xx')} | ${c('5xx')} | ${c('conn')} | ${pct(p.ms, 0.5).toFixed(0)} ms | ${pct(p.ms, 0.99).toFixed(0)} ms |`,
      );
    }
    const checks = [
      ['journeys completed (clients honouring Retry-After)', 'all', `${done} of ${COUNT}`, done === COUNT],
      [
        'answers 5xx other than 503',
        '0',
        `${totals.bad5xx.length}${totals.bad5xx.length ? ` (${[...new Set(totals.bad5xx)].slice(0, 5).join('; ')})` : ''}`,
        totals.bad5xx.length === 0,
      ],
      ['registered accounts vs completed journeys', 'equal', `${accounts} vs ${done}`, accounts === done],
      [
        'distinct mails (Message-IDs) per address: none lost, none doubled, none unasked',
        '0 lost, 0 doubled, 0 unasked',
        `${lost} lost, ${doubled} doubled, ${unasked} unasked (${distinct} distinct mails to ${byAddress.size} addresses; ${[...signupsSent.values()].reduce((a, b) => a + b, 0)} sign-up requests sent)`,
        lost === 0 && doubled === 0 && unasked === 0 && noId === 0,
      ],
      [
        'raw SMTP transactions (the same Message-ID again: at-least-once)',
        'reported',
        `${mails.length} (${rawDuplicates} again${rawDuplicates ? `: ${[...rawExtra].map(([at, n]) => `${n} ${at}`).join(', ')}` : ''})`,
        true,
      ],
      [
        'downloaded file bytes matching the upload',
        'all',
        `${bytesOk} of ${uploaded.size}`,
        bytesOk === uploaded.size && uploaded.size === done,
      ],
      [
        'orphan objects (in the bucket, named by no file row and no upload hold)',
        '0',
        `${orphans} (${awaitingPurge} of uploads cut by the kill, named by their hold: removed by the hourly purge)`,
        orphans === 0,
      ],
      ['outbox rows stuck (neither sent nor failed)', '0', String(stuck), stuck === 0],
    ];
    const table = [
      `Soak with faults: ${COUNT} journeys at concurrency ${CONCURRENCY}, ${addresses} client addresses, outages of ${OUTAGE_MS / 1000} s, ${seconds.toFixed(0)} s in all, ${totals.retries} retries (Retry-After honoured), node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC.`,
      '',
      ...lines,
      '',
      '| end check | budget | measured | result |',
      '|---|---|---|---|',
      ...checks.map(([f, b, m, ok]) => `| ${f} | ${b} | ${m} | ${ok ? 'PASS' : 'FAIL'} |`),
      ...(failures.length ? ['', `Failed journeys (first 5): ${failures.slice(0, 5).join(' · ')}`] : []),
    ].join('\n');
    console.log(`\n${table}\n`);
    writeSection(table);
    return checks.map(([figure, budget, measured, pass]) => ({ figure: `soak: ${figure}`, budget, measured, pass }));
  } finally {
    await db.end().catch(() => undefined);
    for (const instance of instances) await instance.stop('SIGKILL').catch(() => undefined);
    await nginx.stop().catch(() => undefined);
    await smtp?.close().catch(() => undefined);
    await redis.stop().catch(() => undefined);
    await s3.stop().catch(() => undefined);
    cluster.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The soak's own section of bench/results.md (replaced on each soak; the whole bench keeps it). */
const SOAK_START = '<!-- soak -->';
const SOAK_END = '<!-- /soak -->';
function writeSection(table) {
  const file = join(repo, 'bench/results.md');
  const text = readFileSync(file, 'utf8');
  const section = `${SOAK_START}\n## Soak with faults (\`npm run bench -- soak\`)\n\n${table}\n${SOAK_END}\n`;
  const at = text.indexOf(SOAK_START);
  const end = text.indexOf(SOAK_END);
  writeFileSync(
    file,
    at >= 0 && end > at
      ? `${text.slice(0, at)}${section}${text.slice(end + SOAK_END.length + 1)}`
      : `${text.trimEnd()}\n\n${section}`,
  );
}
