import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pLimit from 'p-limit';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Deliver } from '../plugins/mailer.js';
import { outboxRepository, type OutboxMail } from '../plugins/outbox-repository.js';
import { INVITE_TTL_DAYS } from '../modules/accounts/index.js';
import type { Job } from './job.js';

/**
 * A mail is retried until it is this old, then marked failed (logged, its body cleared); an SMTP 5xx
 * answer marks it failed at once, and a code or invitation is not sent once what it carries expired. Backoff
 * doubles from the base delay up to MAX_BACKOFF_FACTOR times it (20 minutes with the production
 * base of 2 s) and stays there, so an SMTP outage of up to three days loses nothing.
 */
export const GIVE_UP_AFTER_MS = 72 * 3_600_000;
/** Longest wait between two tries, in units of the base delay. */
const MAX_BACKOFF_FACTOR = 600;
/**
 * A claim is a lease: its holder extends it every third of it (5 s) while the send runs, so a slow send
 * is never taken over; a worker that died mid-send (SIGKILL) frees it after this long, so another one
 * delivers it within 15 s instead of a minute. Losing a lease takes three missed extensions in a row
 * (the database unreachable for 10-15 s while a send runs); the claim token keeps a lost claim from
 * being recorded twice. One heartbeat query extends all of a worker's claims, on its own connection:
 * one extension per claim and timer, queued behind the senders' queries, piled up faster than a slow
 * database answered and wrote ends already past, and other workers took mails still being sent.
 */
const LEASE_MS = 15_000;
/**
 * A delivered mail's recording is retried this long (a database outage): past it the claim runs out and
 * the mail goes out again, with the same Message-ID (mailer.ts), which receivers deduplicate.
 */
const RECORD_FOR_MS = 60_000;
/** On stop, an in-flight send gets this long to finish before its connection is cut and its mail released. */
const STOP_WAIT_MS = 1_500;
const IDLE_POLL_MS = 5_000;
/** Due ids read per query (at least twice the concurrency). */
const BATCH = 10;
/**
 * The outbox's database calls in flight at once, whatever the concurrency: the senders' claims and
 * records never take more than this of an instance's connections (PostgreSQL pool: 10), so a burst of
 * sign-ups is not kept waiting for a connection (3 s, then 503) by the mail it queues. The heartbeat
 * takes one more, never two at once.
 */
const DB_SLOTS = 2;

/** Why a mail was not delivered (suite_mail_failures_total's `reason`). */
export type MailFailure = 'temporary' | 'permanent' | 'expired' | 'gave_up';

/**
 * An SMTP answer of 5xx is final (RFC 5321 §4.2.1: "permanent negative completion"): the address does
 * not exist or the mail is refused; retrying it for 72 h is what providers penalise. 4xx, a dropped
 * connection or a timeout are temporary. nodemailer puts the reply's code in `responseCode`.
 */
function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export interface OutboxOptions {
  leaseMs?: number;
  /** Mails in flight at once (MAIL_CONCURRENCY; 1 when not given). */
  concurrency?: number;
  abort?: () => void;
  /** How long a mail of this kind is worth delivering (a code that expired, a link past its validity). */
  worthFor?: (kind: string) => number | undefined;
  /** Counts a failure (the metrics). */
  onFailure?: (reason: MailFailure) => void;
}

/** Delivers due outbox rows; failures are retried with exponential backoff, never dropped silently. */
export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** The senders of the current run (at most `concurrency`), and the first failure one of them met. */
  private readonly senders = new Set<Promise<void>>();
  private senderError: unknown;
  private sending = false;
  /** Due ids read and not yet taken by a sender; `refill` is the one query filling it. */
  private readonly queue: string[] = [];
  private refill: Promise<void> | undefined;
  private stopped = false;
  /** Rows this worker holds a claim on (claim token by row id). */
  private readonly held = new Map<string, string>();
  private readonly outbox: ReturnType<typeof outboxRepository>;
  /** Ungated: the heartbeat must not wait behind the senders' queries for its turn. */
  private readonly heartbeatOutbox: ReturnType<typeof outboxRepository>;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    db: Kysely<Database>,
    private readonly deliver: Deliver,
    private readonly baseMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly options: OutboxOptions = {},
  ) {
    this.outbox = gated(outboxRepository(db), DB_SLOTS);
    this.heartbeatOutbox = outboxRepository(db);
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? LEASE_MS;
  }

  /** Rows queued by another process (admin CLI, another instance) are found within this. */
  private get idleMs(): number {
    return Math.min(IDLE_POLL_MS, this.baseMs * 20);
  }

  private get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? 1);
  }

  kick(delay = 0): void {
    if (this.stopped) return;
    if (this.running) {
      // New mail while others are being sent: idle senders start on it now, not after the slowest send.
      this.again = true;
      if (this.sending) this.startSenders();
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  /**
   * Stops taking mail; a send in flight gets STOP_WAIT_MS, then its connection is cut (`abort`) and its
   * claim released at once, so another instance delivers it without waiting for the lease to run out.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    try {
      if (!this.running) return;
      const waited = await within(STOP_WAIT_MS, this.running);
      if (waited) return;
      this.log.warn({ mails: [...this.held.keys()] }, 'mail outbox: send still running at shutdown; cutting it');
      this.options.abort?.();
      if (await within(STOP_WAIT_MS, this.running)) return;
      await this.release().catch((err: unknown) => this.log.error({ err }, 'mail outbox: claims not released'));
    } finally {
      clearTimeout(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /** Gives up every claim this worker holds (the mail stays due). */
  private async release(): Promise<void> {
    for (const [id, token] of [...this.held]) {
      await this.outbox.release(id, token);
      this.held.delete(id);
    }
  }

  private tick(): void {
    this.running = (async () => {
      let delay = this.idleMs;
      try {
        await this.runOnce();
        delay = await this.nextDelay();
      } catch (err) {
        // The database may be briefly unavailable: log and look again later; rows stay queued.
        this.log.error({ err }, 'mail outbox run failed');
      }
      this.running = undefined;
      this.kick(this.again ? 0 : delay);
      this.again = false;
    })();
  }

  /**
   * Up to `concurrency` senders, each taking the next due mail until none is left; the pooled SMTP
   * transport gives each its own connection. Resolves when the last sender is done.
   */
  private async runOnce(): Promise<void> {
    this.senderError = undefined;
    this.sending = true;
    this.startSenders();
    while (this.senders.size) await Promise.allSettled([...this.senders]);
    this.sending = false;
    if (this.senderError !== undefined) throw this.senderError;
  }

  private startSenders(): void {
    while (this.senders.size < this.concurrency && !this.stopped) {
      const sender: Promise<void> = this.send()
        .catch((err: unknown) => {
          this.senderError ??= err;
        })
        .finally(() => this.senders.delete(sender));
      this.senders.add(sender);
    }
  }

  private async send(): Promise<void> {
    for (let id = await this.nextDue(); id !== undefined && !this.stopped; id = await this.nextDue()) {
      const claimed = await this.claim(id);
      // A mail whose outcome could not be written is no longer kept: its lease runs out, another try comes.
      if (claimed)
        await this.attempt(claimed.row, claimed.token).catch((err: unknown) => {
          this.held.delete(id);
          throw err;
        });
    }
  }

  /** The next due id (read BATCH at a time, one query for all senders); undefined when none is due. */
  private async nextDue(): Promise<string | undefined> {
    if (this.queue.length === 0 && !this.stopped) {
      this.refill ??= this.outbox
        .due(Date.now(), Math.max(BATCH, 2 * this.concurrency))
        .then((ids) => void this.queue.push(...ids))
        .finally(() => (this.refill = undefined));
      await this.refill;
    }
    return this.queue.shift();
  }

  /** Several server instances may share the outbox: a row is sent by whoever claims it first. */
  private async claim(id: string): Promise<{ row: OutboxMail; token: string } | null> {
    // Read as due again by a refill while another sender of this worker claims it: that claim is ours.
    if (this.held.has(id)) return null;
    const token = randomUUID();
    this.held.set(id, token);
    const row = await this.outbox.claim(id, token, this.leaseMs).catch((err: unknown) => {
      this.held.delete(id);
      throw err;
    });
    if (!row) this.held.delete(id);
    return row ? { row, token } : null;
  }

  /**
   * While this worker holds claims: every third of the lease, one query pushes all of them forward, so
   * no other worker takes a slow send over. The next beat is timed from the start of the last one, and
   * never overlaps it (on a slow database beats would only pile up); it stops once no claim is held.
   */
  private keepClaims(): void {
    if (this.heartbeat) return;
    const beat = async (): Promise<void> => {
      if (this.held.size === 0) {
        this.heartbeat = undefined;
        return;
      }
      const started = Date.now();
      try {
        await this.heartbeatOutbox.extend([...this.held.values()], this.leaseMs);
      } catch (err) {
        this.log.warn({ err, mails: [...this.held.keys()] }, 'mail outbox: leases not extended');
      }
      // Stopped meanwhile: no next beat.
      if (this.heartbeat === undefined) return;
      this.heartbeat = setTimeout(() => void beat(), Math.max(0, started + this.leaseMs / 3 - Date.now()));
      this.heartbeat.unref();
    };
    this.heartbeat = setTimeout(() => void beat(), this.leaseMs / 3);
    this.heartbeat.unref();
  }

  private async attempt(row: OutboxMail, token: string): Promise<void> {
    const worth = this.options.worthFor?.(row.kind);
    if (worth !== undefined && Date.now() - Number(row.created_at) >= worth) {
      // A code that no longer works, a link past its validity: not sent at all (the person asks again).
      await this.giveUp(row, token, row.attempts, 'expired', 'not delivered in time: what it carries has expired');
      return;
    }
    const attempts = row.attempts + 1;
    this.keepClaims();
    try {
      await this.deliver(row);
    } catch (err) {
      await this.failed(row, token, attempts, err);
      return;
    }
    // Delivered: recording it must outlast a database outage, else the claim runs out and the mail is sent
    // a second time (the soak's doubled mails: PostgreSQL down for 7 s, recording given up after 6 s). It
    // is retried, the lease still extended, every half second at most, until the database answers: no one
    // can claim while it is down, and a lease extended every third of it outlasts an outage of two thirds
    // of it (10 s), so the first query after it is back records the mail under this claim. Given up only
    // after RECORD_FOR_MS or at shutdown.
    const until = Date.now() + RECORD_FOR_MS;
    for (let wait = 100; ; wait = Math.min(wait * 2, 500)) {
      try {
        await this.sent(row.id, token, attempts);
        return;
      } catch (err) {
        if (Date.now() + wait > until || this.stopped) throw err;
        this.log.warn({ err, mailId: row.id }, 'mail outbox: delivered, not yet recorded; retrying');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** Marks a delivered mail sent, only under this worker's claim (a lost claim is reported, never overwritten). */
  private async sent(id: string, token: string, attempts: number): Promise<void> {
    const recorded = await this.outbox.markSent(id, token, attempts);
    this.held.delete(id);
    if (!recorded) this.log.error({ mailId: id }, 'mail outbox: delivered after its claim was lost');
  }

  private async failed(
    row: { id: string; created_at: number },
    token: string,
    attempts: number,
    err: unknown,
  ): Promise<void> {
    if (this.stopped) {
      // Cut by the shutdown: not the mail's fault, no attempt counted; another instance sends it now.
      await this.outbox.release(row.id, token);
      this.held.delete(row.id);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    const now = Date.now();
    if (isPermanent(err)) {
      await this.giveUp(row, token, attempts, 'permanent', message);
      return;
    }
    if (now - Number(row.created_at) >= GIVE_UP_AFTER_MS) {
      await this.giveUp(row, token, attempts, 'gave_up', message);
      return;
    }
    const wait = this.baseMs * Math.min(2 ** (attempts - 1), MAX_BACKOFF_FACTOR);
    await this.outbox.retryAt(row.id, token, attempts, now + wait, message);
    this.held.delete(row.id);
    this.options.onFailure?.('temporary');
    this.log.warn({ mailId: row.id, attempts, err: message }, 'mail delivery failed; will retry');
  }

  /** Final: marked failed with its reason, and the codes and invite links it carried are not kept. */
  private async giveUp(
    row: { id: string },
    token: string,
    attempts: number,
    reason: Exclude<MailFailure, 'temporary'>,
    message: string,
  ): Promise<void> {
    await this.outbox.markFailed(row.id, token, attempts, `${reason}: ${message}`);
    this.held.delete(row.id);
    this.options.onFailure?.(reason);
    this.log.error({ mailId: row.id, attempts, reason, err: message }, 'mail not delivered; given up');
  }

  private async nextDelay(): Promise<number> {
    const at = await this.outbox.nextDueAt();
    if (at === undefined) return this.idleMs;
    return Math.min(this.idleMs, Math.max(10, at - Date.now()));
  }
}

/** The outbox worker as a job: it delivers what was queued before start, then whenever the mailer is kicked. */
export function mailOutboxJob(app: FastifyInstance): Job {
  const codeTtlMs = app.config.codeTtlMs;
  const worth: Record<string, number> = {
    'confirm-code': codeTtlMs,
    'recovery-code': codeTtlMs,
    invite: INVITE_TTL_DAYS * 86_400_000,
  };
  const worker = new OutboxWorker(app.db.kysely, app.mailer.deliver, app.config.mailRetryBaseMs, app.log, {
    concurrency: app.config.mailConcurrency,
    abort: () => app.mailer.abort(),
    worthFor: (kind) => worth[kind],
    onFailure: (reason) => app.recordMailFailure(reason),
  });
  return {
    name: 'mail-outbox',
    start() {
      app.mailer.onKick(() => worker.kick());
      worker.kick();
    },
    stop: () => worker.stop(),
  };
}

/** true when `work` settled within `ms`. */
function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

/** `repository` with at most `slots` of its calls running at once (the others wait their turn, in order). */
function gated<T extends Record<string, (...args: never[]) => Promise<unknown>>>(repository: T, slots: number): T {
  const limit = pLimit(slots);
  return Object.fromEntries(
    Object.entries(repository).map(([name, call]) => [
      name,
      (...args: Parameters<typeof call>) => limit(() => call(...args)),
    ]),
  ) as T;
}
