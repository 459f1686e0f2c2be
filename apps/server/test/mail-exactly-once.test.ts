import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { OutboxWorker } from '../src/jobs/mail-outbox.js';
import { queueMail } from '../src/plugins/mailer.js';
import { KEEP_DONE_MS, outboxRepository } from '../src/plugins/outbox-repository.js';
import { isPostgresSuite, logCapture } from './helpers.js';

/**
 * Two outbox workers (two instances) on one outbox, each sending three mails at once, delivering to an
 * SMTP server that takes longer to accept each mail than a claim's lease: every mail arrives once.
 */
const dir = mkdtempSync(join(tmpdir(), 'suite-outbox-'));
let db: Db;
let smtp: SMTPServer;
let port = 0;
const received: string[] = [];
/** How long the SMTP server takes to accept a mail (longer than the claim lease of the test). */
let smtpDelayMs = 1500;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  // The PostgreSQL suite's database when it runs (two instances share PostgreSQL, not a SQLite file).
  db = openDatabase({ dataDir: dir, databaseUrl: process.env.TEST_DATABASE_URL });
  await migrate(db);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let text = '';
      stream.on('data', (c: Buffer) => (text += c.toString()));
      // Longer than the lease: without lease extension another worker would take the mail over.
      stream.on('end', () =>
        setTimeout(() => {
          received.push(/^Subject: (.*)$/m.exec(text)?.[1] ?? '?');
          callback();
        }, smtpDelayMs),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  port = (smtp.server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Queues `count` mails, runs two outbox workers (two instances, three sends at once each) on `kysely`
 * until none is pending, and returns what the SMTP server received (subjects: the outbox ids) and what
 * the outbox holds, with the log lines.
 */
async function deliverAll(kysely: Db['kysely'], count: number, leaseMs: number) {
  const site = { appTitle: 'Suite', publicUrl: 'http://localhost:8080', codeTtlMs: 600_000 };
  const queued: string[] = [];
  for (let i = 0; i < count; i++) {
    queued.push(
      await queueMail(db.kysely, { kind: 'confirm-code', to: `user${i}@contoso.com`, language: 'en', code: '1' }, site),
    );
  }
  const { lines, stream } = logCapture();
  const log = pino({ level: 'info' }, stream);
  const workers = [0, 1].map(() => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      pool: true,
    });
    const worker = new OutboxWorker(
      kysely,
      async (row) => {
        await transport.sendMail({
          from: 'no-reply@localhost',
          to: row.to_address,
          subject: row.id,
          text: row.text_body,
        });
      },
      50,
      log,
      { leaseMs, concurrency: 3, abort: () => transport.close() },
    );
    return { worker, transport };
  });
  for (const { worker } of workers) worker.kick();

  const pending = async () =>
    (
      await db.kysely
        .selectFrom('mail_outbox')
        .select('id')
        .where('id', 'in', queued)
        .where('sent_at', 'is', null)
        .execute()
    ).length;
  await expect.poll(pending, { timeout: 40_000, interval: 100 }).toBe(0);
  for (const { worker, transport } of workers) {
    await worker.stop();
    transport.close();
  }
  return { queued: queued.sort(), received: received.filter((id) => queued.includes(id)).sort(), lines };
}

describe('mail outbox with several workers', () => {
  it('delivers every mail exactly once when a send outlasts the claim lease', async () => {
    smtpDelayMs = 1500;
    const { queued, received, lines } = await deliverAll(db.kysely, 12, 500);
    expect(received).toEqual(queued);
    expect(lines.filter((l) => l.includes('claim was lost'))).toEqual([]);
  });

  // PostgreSQL only: SQLite has one connection, which a 300 ms answer holds for everyone (and two
  // instances never share a SQLite file).
  it.runIf(isPostgresSuite())(
    'delivers every mail exactly once when the database answers slower than the lease is extended',
    async () => {
      // Every query answers 300 ms late (a loaded database): one extension per send and timer, queued behind
      // the senders' queries, piled up faster than they were answered and wrote lease ends already past.
      const slow = db.kysely.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return args.result;
        },
      });
      smtpDelayMs = 2500;
      const { queued, received, lines } = await deliverAll(slow, 12, 1200);
      expect(received).toEqual(queued);
      expect(lines.filter((l) => l.includes('claim was lost'))).toEqual([]);
    },
    60_000,
  );
});

describe('a delivered mail while the database is down', () => {
  it('is recorded once the database is back, not sent a second time (an outage longer than 6 s)', async () => {
    const site = { appTitle: 'Suite', publicUrl: 'http://localhost:8080', codeTtlMs: 600_000 };
    const id = await queueMail(
      db.kysely,
      { kind: 'confirm-code', to: 'outage@contoso.com', language: 'en', code: '123456' },
      site,
    );
    // The database as the worker sees it: every query fails while `down` (PostgreSQL stopped).
    let down = false;
    const flaky = db.kysely.withPlugin({
      transformQuery(args) {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const delivered: string[] = [];
    const log = pino({ level: 'silent' });
    // Two workers (two instances), the production lease: the database goes down right after the SMTP
    // server accepted the mail, for 8 s (before, recording was given up after about 6 s and the mail
    // was sent again once the claim ran out).
    const workers = [0, 1].map(
      () =>
        new OutboxWorker(
          flaky,
          async (row) => {
            delivered.push(row.id);
            if (delivered.length === 1) {
              down = true;
              setTimeout(() => (down = false), 8_000);
            }
          },
          50,
          log,
        ),
    );
    for (const worker of workers) worker.kick();
    const sentAt = async () =>
      (await db.kysely.selectFrom('mail_outbox').select('sent_at').where('id', '=', id).executeTakeFirst())?.sent_at;
    await expect.poll(async () => (await sentAt()) != null, { timeout: 40_000, interval: 100 }).toBe(true);
    for (const worker of workers) await worker.stop();

    expect(await sentAt()).not.toBeNull();
    expect(delivered).toEqual([id]);
  }, 60_000);
});

describe('outbox purge (the purge job, hourly)', () => {
  it('removes delivered and given-up mails older than a week, keeps newer ones and everything still due', async () => {
    const outbox = outboxRepository(db.kysely);
    const now = Date.now();
    const row = (id: string) => ({
      id,
      kind: 'confirm-code',
      to_address: `${id}@contoso.com`,
      subject: 's',
      text_body: 't',
      html_body: 'h',
    });
    // Ids of this run: the PostgreSQL suite's database keeps the rows of earlier runs and other files.
    const run = randomUUID().slice(0, 8);
    const [oldSent, oldFailed, newSent, oldPending] = ['old-sent', 'old-failed', 'new-sent', 'old-pending'].map(
      (id) => `${id}-${run}`,
    );
    for (const id of [oldSent, oldFailed, newSent, oldPending]) await outbox.insert(row(id), now - 8 * DAY_MS);
    const at = (id: string, set: { sent_at?: number; failed_at?: number }) =>
      db.kysely.updateTable('mail_outbox').set(set).where('id', '=', id).execute();
    await at(oldSent, { sent_at: now - 8 * DAY_MS });
    await at(oldFailed, { failed_at: now - KEEP_DONE_MS - 1000 });
    await at(newSent, { sent_at: now - KEEP_DONE_MS + 60_000 });

    expect(await outbox.purgeDone(now)).toBeGreaterThanOrEqual(2);
    const left = await db.kysely
      .selectFrom('mail_outbox')
      .select('id')
      .where('id', 'in', [oldSent, oldFailed, newSent, oldPending])
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual([newSent, oldPending]);
    expect(await outbox.purgeDone(now)).toBe(0);
  });
});
