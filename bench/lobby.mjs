// The meeting lobby across two instances: two built instances on one throwaway PostgreSQL
// (apps/server/test/pg-cluster.ts) and one Redis (apps/server/test/redis.ts), as docs/deploy.md runs
// them. The host's calls go to instance B, the waiting people's to instance A.
// - admit-to-join: a guest asks on A and holds A's Server-Sent Events stream open; the host admits on
//   B; measured from the admit request to the guest's token answer on A (the page asks for it the
//   moment the pushed decision arrives, and joins with it). BENCH_LOBBY_ADMITS (default 40) in turn.
// - 200 people asking on A: the host's list read on B (what the room page renders) and "Admit all"
//   on B until every one of the 200 waiting streams on A has been told.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { createAccounts, fmt, loginHeader, repo, startOurs } from './lib.mjs';

const ADMITS = Number(process.env.BENCH_LOBBY_ADMITS ?? 40);
const CROWD = Number(process.env.BENCH_LOBBY_CROWD ?? 200);
const ADMIT_BUDGET_MS = 1000;
const CROWD_BUDGET_MS = 2000;

const suiteModule = (path) => tsImport(pathToFileURL(join(repo, 'apps/server', path)).href, import.meta.url);
const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

async function call(base, method, path, { body, headers = {}, cookie } = {}) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie: `suite_lobby=${cookie}` } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const cookieOut = /suite_lobby=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  return { status: res.status, json: text ? JSON.parse(text) : null, cookie: cookieOut };
}

/** A waiting page's stream: resolves `admitted` when the pushed status says so. */
async function waitingStream(base, room, cookie) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v2/videoconference/${room}/lobby/me/events`, {
    headers: { cookie: `suite_lobby=${cookie}` },
    signal: controller.signal,
  });
  if (res.status !== 200) throw new Error(`lobby stream: HTTP ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let first;
  const opened = new Promise((resolve) => (first = resolve));
  const admitted = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('lobby stream ended');
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((l) => l.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const status = JSON.parse(data.slice(6)).status;
        first();
        if (status === 'admitted') return performance.now();
      }
    }
  })();
  admitted.catch(() => undefined);
  await opened;
  return { admitted, close: () => controller.abort() };
}

async function guestAsks(a, room, name) {
  const guest = await call(a, 'POST', '/guest', { body: { name, accepted_terms: { version: 1 } } });
  const asked = await call(a, 'POST', '/v2/videoconference/guest/token', {
    body: { room_name: room, guest_id: guest.json._id },
  });
  if (asked.status !== 202) throw new Error(`ask: HTTP ${asked.status} ${JSON.stringify(asked.json)}`);
  return { guestId: guest.json._id, cookie: asked.cookie };
}

export default async function run() {
  const { startPgCluster } = await suiteModule('test/pg-cluster.ts');
  const { startRedis } = await suiteModule('test/redis.ts');
  const work = mkdtempSync(join(tmpdir(), 'bench-lobby-'));
  const pg = await startPgCluster();
  const redis = await startRedis();
  const instances = [];
  try {
    const [hostAccount] = await createAccounts({ dataDir: work, databaseUrl: pg.url, count: 1 });
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SCALE: '1000',
      MEET_DOMAIN: 'meet.bench.test',
      JITSI_APP_ID: 'bench',
      JITSI_APP_SECRET: 'bench-jitsi-secret-0123456789abcdef',
      MEETING_DEFAULT_ACCESS: 'organisation',
    };
    // Each on its own core when there are two; the load generator shares them.
    const a = await startOurs({ dataDir: join(work, 'a'), env, core: '0' });
    instances.push(a);
    const b = await startOurs({ dataDir: join(work, 'b'), env, core: '1' });
    instances.push(b);
    const host = await loginHeader(b.base, hostAccount);
    const meeting = await call(b.base, 'POST', '/v2/videoconference', { body: {}, headers: host });
    const room = meeting.json._id;
    const opened = await call(b.base, 'POST', '/v2/videoconference/token', {
      body: { room_name: room },
      headers: host,
    });
    if (opened.status !== 200) throw new Error(`host token: HTTP ${opened.status}`);

    // Admit-to-join, one at a time.
    const latencies = [];
    for (let i = 0; i < ADMITS + 3; i++) {
      const { guestId, cookie } = await guestAsks(a.base, room, `Guest ${i}`);
      const stream = await waitingStream(a.base, room, cookie);
      const list = await call(b.base, 'GET', `/v2/videoconference/${room}/lobby`, { headers: host });
      const request = list.json.requests.find((r) => r.name === `Guest ${i}`);
      const t0 = performance.now();
      const admitted = await call(b.base, 'POST', `/v2/videoconference/${room}/lobby/requests/${request.id}/admit`, {
        headers: host,
      });
      if (admitted.status !== 200) throw new Error(`admit: HTTP ${admitted.status}`);
      await stream.admitted;
      const token = await call(a.base, 'POST', '/v2/videoconference/guest/token', {
        body: { room_name: room, guest_id: guestId },
        cookie,
      });
      if (token.status !== 200) throw new Error(`token after admit: HTTP ${token.status}`);
      // The first three warm up (JIT, connection pools).
      if (i >= 3) latencies.push(performance.now() - t0);
      stream.close();
    }
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);

    // 200 people asking at once.
    const crowdRoom = (await call(b.base, 'POST', '/v2/videoconference', { body: {}, headers: host })).json._id;
    await call(b.base, 'POST', '/v2/videoconference/token', { body: { room_name: crowdRoom }, headers: host });
    const people = [];
    for (let i = 0; i < CROWD; i += 20) {
      people.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, CROWD - i) }, (_, j) => guestAsks(a.base, crowdRoom, `Person ${i + j}`)),
        )),
      );
    }
    const streams = [];
    for (let i = 0; i < people.length; i += 20) {
      streams.push(
        ...(await Promise.all(people.slice(i, i + 20).map((p) => waitingStream(a.base, crowdRoom, p.cookie)))),
      );
    }
    const t0 = performance.now();
    const list = await call(b.base, 'GET', `/v2/videoconference/${crowdRoom}/lobby`, { headers: host });
    const listMs = performance.now() - t0;
    if (list.json.requests.length !== CROWD) throw new Error(`list: ${list.json.requests.length} of ${CROWD}`);
    const t1 = performance.now();
    const all = await call(b.base, 'POST', `/v2/videoconference/${crowdRoom}/lobby/admit-all`, { headers: host });
    const admitAllMs = performance.now() - t1;
    const told = await Promise.all(streams.map((s) => s.admitted));
    const everyoneToldMs = Math.max(...told) - t1;
    for (const s of streams) s.close();

    return [
      {
        figure: `lobby admit-to-join across two instances (admit on B → pushed to the waiting stream on A → token on A; PostgreSQL, Redis; ${latencies.length} in turn)`,
        budget: `p95 ≤ ${ADMIT_BUDGET_MS} ms`,
        measured: `p50 ${fmt.ms(p50)}, p95 ${fmt.ms(p95)}`,
        pass: p95 <= ADMIT_BUDGET_MS,
      },
      {
        figure: `lobby with ${CROWD} people asking: host's list read + Admit all, and until all ${CROWD} waiting streams are told (two instances)`,
        budget: `list + Admit all ≤ ${CROWD_BUDGET_MS} ms`,
        measured: `list ${fmt.ms(listMs)} (${CROWD} rows) + Admit all ${fmt.ms(admitAllMs)} (${all.json.admitted} admitted); all ${CROWD} told after ${fmt.ms(everyoneToldMs)}`,
        pass: all.json.admitted === CROWD && listMs + admitAllMs <= CROWD_BUDGET_MS,
      },
    ];
  } finally {
    for (const instance of instances) await instance.close();
    await redis.stop();
    pg.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}
