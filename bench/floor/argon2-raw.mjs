// The login baseline: raw argon2id verifications with the server's parameters, CONCURRENCY at a time,
// for SECONDS seconds; prints verifications per second, and per CPU-second of the process (all its threads).
import { hash, verify } from '@node-rs/argon2';

const params = JSON.parse(process.env.ARGON2_PARAMS);
const concurrency = Number(process.env.CONCURRENCY ?? 4);
const seconds = Number(process.env.SECONDS ?? 5);
const stored = await hash('correct horse battery', params);
for (let i = 0; i < concurrency; i++) await verify(stored, 'correct horse battery'); // warm-up
let done = 0;
const until = performance.now() + seconds * 1000;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      await verify(stored, 'correct horse battery');
      done++;
    }
  }),
);
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    rate: done / ((performance.now() - t0) / 1000),
    perCpuSecond: done / ((cpu.user + cpu.system) / 1e6),
  }),
);
