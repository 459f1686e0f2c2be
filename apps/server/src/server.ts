import { Worker } from 'node:worker_threads';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, prepareDataDir } from './config.js';

/**
 * The deadline that holds even when the main thread cannot run a timer (stuck in a synchronous call,
 * e.g. a write that waits in Atomics.wait): a worker thread, with an event loop of its own, kills the
 * process when `ms` have passed. Started when shutdown begins, not with the server: an idle worker holds
 * about 10 MiB (a V8 isolate of its own) for a moment that most processes never reach. Its thread boots
 * on its own, with the deadline in its workerData, so a main thread that blocks right after still dies
 * on time (the boot, tens of milliseconds, is far inside the grace period). Unref'd: a process that
 * finishes earlier exits without waiting for it.
 */
function startWatchdog(ms: number): void {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);`,
    { eval: true, workerData: { pid: process.pid, ms } },
  );
  worker.unref();
}

/**
 * SIGTERM / SIGINT: stop accepting connections and let in-flight requests finish; past half the grace
 * period the connections still open are cut (an upload in progress is then removed by its own error
 * path); the plugins' onClose hooks release what they hold (claimed outbox mail, database pool, Redis),
 * each with a bound. Whatever still hangs at the end of the grace period (a dead SMTP server, database
 * or object store), the process exits 0 then: nothing it holds is lost, and a balancer or supervisor
 * waiting for the exit is not kept waiting. Should the main thread itself be stuck, the watchdog thread
 * (startWatchdog) kills the process just before the grace period ends.
 */
async function shutdown(app: FastifyInstance, graceMs: number): Promise<void> {
  const cut = setTimeout(() => {
    app.log.warn('shutdown: requests still running at half the grace period; closing their connections');
    app.server.closeAllConnections();
  }, graceMs / 2);
  let giveUp: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    giveUp = setTimeout(() => resolve('late'), Math.max(0, graceMs - 500));
  });
  const outcome = await Promise.race([app.close().then(() => 'closed' as const), late]);
  clearTimeout(cut);
  clearTimeout(giveUp);
  if (outcome === 'late')
    app.log.error('shutdown: still waiting on a dependency at the end of the grace period; exiting');
  else app.log.info('shutdown complete');
}

async function main(): Promise<void> {
  let config;
  try {
    prepareDataDir();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const app = await buildApp(config);
  const graceMs = config.shutdownGraceMs;
  // close-with-grace's own delay is a last resort only (exit 1): shutdown() ends before it, and the
  // watchdog before that. Its logger is off: console writes to a pipe are synchronous and could block.
  closeWithGrace({ delay: graceMs + 2_000, logger: false }, async ({ signal, err }) => {
    // First, before anything that could block: the deadline that does not need this thread.
    startWatchdog(Math.max(graceMs - 200, graceMs * 0.9));
    if (err) app.log.error({ err }, 'closing after error');
    else app.log.info({ signal, graceMs }, 'shutting down');
    await shutdown(app, graceMs);
  });
  await app.listen({ port: config.port, host: config.host });
  // For the production launcher (scripts/launcher.mjs): the start's code is compiled, cache it now.
  process.emit('server-listening');
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- how @types/node declares process' events
  namespace NodeJS {
    interface Process {
      /** Emitted once the server listens (read by the production launcher, scripts/launcher.mjs). */
      emit(event: 'server-listening'): boolean;
    }
  }
}
