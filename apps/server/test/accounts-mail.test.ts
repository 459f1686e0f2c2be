import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { GIVE_UP_AFTER_MS } from '../src/jobs/mail-outbox.js';
import { admin, call, mailTo, outboxDrained, startWorld } from './accounts-helpers.js';
import { createTestApp, logCapture } from './helpers.js';
import { codeIn, freePort, startSmtp } from './smtp.js';

describe('mail delivery', () => {
  it('an SMTP 5xx answer is final at once (counted, listed by the admin CLI); a 4xx keeps the back-off', async () => {
    const token = 'metrics-token-0123456789';
    const refusals: Record<string, { code: number; text: string }> = {
      'dead@contoso.com': { code: 550, text: '5.1.1 User unknown' },
      'busy@contoso.com': { code: 451, text: '4.3.0 Try again later' },
    };
    const w = await startWorld({ METRICS_TOKEN: token });
    w.smtp.refuse = (address) => refusals[address];
    try {
      for (const email of ['dead@contoso.com', 'busy@contoso.com', 'fine@contoso.com']) {
        expect((await call(w.app, { method: 'POST', url: '/v2/user', body: { email } })).statusCode).toBe(201);
      }
      await mailTo(w.smtp, 'fine@contoso.com');
      const db = w.app.db.kysely;
      const row = (to: string) =>
        db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow();
      await expect.poll(async () => (await row('dead@contoso.com')).failed_at, { timeout: 10_000 }).not.toBeNull();
      const dead = await row('dead@contoso.com');
      expect(dead.attempts).toBe(1);
      expect(dead.last_error).toMatch(/^permanent: .*550.*User unknown/);
      expect(dead.text_body).toBe('');
      // The 4xx address is tried again and again (50 ms base in the tests), never given up.
      await expect.poll(async () => (await row('busy@contoso.com')).attempts, { timeout: 10_000 }).toBeGreaterThan(2);
      expect((await row('busy@contoso.com')).failed_at).toBeNull();
      expect((await row('dead@contoso.com')).attempts).toBe(1);

      const metrics = (
        await w.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } })
      ).body;
      expect(metrics).toMatch(/^suite_mail_failures_total\{reason="permanent"\} 1$/m);
      expect(Number(/^suite_mail_failures_total\{reason="temporary"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(1);

      const listed = await admin(w, 'mail', 'failed');
      expect(listed).toMatch(/dead@contoso\.com\tconfirm-code\t1\tpermanent: .*550/);
      expect(listed).not.toContain('busy@contoso.com');
      expect(listed).toContain('1 mail(s) given up');
    } finally {
      await w.close();
    }
  });

  it('sends several mails at once to a slow SMTP server, at most MAIL_CONCURRENCY, each exactly once', async () => {
    // A relay that takes 800 ms to accept each mail: one at a time, 8 mails would take 6.4 s.
    const smtp = await startSmtp(0, { delayMs: () => 800 });
    const t = await createTestApp({ SMTP_URL: smtp.url, MAIL_CONCURRENCY: '4', RATE_LIMIT_SCALE: '100' });
    try {
      const emails = Array.from({ length: 8 }, (_, i) => `burst${i}@contoso.com`);
      const answers = await Promise.all(
        emails.map((email) => call(t.app, { method: 'POST', url: '/v2/user', body: { email } })),
      );
      expect(answers.map((r) => r.statusCode)).toEqual(emails.map(() => 201));
      await Promise.all(emails.map((email) => smtp.waitFor((m) => m.to.includes(email), 20_000)));
      await outboxDrained({ t, app: t.app, smtp, close: async () => undefined });
      // Overlapping SMTP transactions, never more than the configured bound.
      expect(smtp.mostInFlight).toBeGreaterThanOrEqual(2);
      expect(smtp.mostInFlight).toBeLessThanOrEqual(4);
      expect(smtp.messages.flatMap((m) => m.to).sort()).toEqual([...emails].sort());
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  it('a code mail still undelivered when its code expired is dropped, not sent late', async () => {
    const w = await startWorld({ CODE_TTL_SECONDS: '60' });
    // Refused for now (4xx), as while a relay is down.
    w.smtp.refuse = () => ({ code: 421, text: '4.3.2 Service not available' });
    try {
      expect(
        (await call(w.app, { method: 'POST', url: '/v2/user', body: { email: 'late@contoso.com' } })).statusCode,
      ).toBe(201);
      const db = w.app.db.kysely;
      const row = () =>
        db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'late@contoso.com').executeTakeFirstOrThrow();
      await expect.poll(async () => (await row()).attempts, { timeout: 10_000 }).toBeGreaterThan(0);
      // The mail was queued longer ago than the code lives.
      await db
        .updateTable('mail_outbox')
        .set({ created_at: Date.now() - 61_000 })
        .where('to_address', '=', 'late@contoso.com')
        .execute();
      // A try that read the row before that change may still be under way: once no try holds the row,
      // every later one sees the expired row. Only then is the relay back.
      await expect.poll(async () => (await row()).claim_token, { timeout: 10_000 }).toBeNull();
      w.smtp.refuse = () => undefined;
      await expect.poll(async () => (await row()).failed_at, { timeout: 10_000 }).not.toBeNull();
      expect((await row()).last_error).toMatch(/^expired: /);
      expect(w.smtp.messages.filter((m) => m.to.includes('late@contoso.com'))).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('keeps a sign-up made while SMTP is down and delivers it when SMTP is back', async () => {
    const port = await freePort();
    const t = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      RATE_LIMIT_SCALE: '100',
      MAIL_RETRY_BASE_MS: '50',
    });
    let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
    try {
      const res = await call(t.app, { method: 'POST', url: '/v2/user', body: { email: 'down@contoso.com' } });
      expect(res.statusCode).toBe(201);
      const outbox = () =>
        t.app.db.kysely
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', 'down@contoso.com')
          .executeTakeFirstOrThrow();
      await expect.poll(async () => (await outbox()).attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      const failing = await outbox();
      expect(failing.sent_at).toBeNull();
      expect(failing.last_error).toMatch(/ECONNREFUSED|connect/i);

      smtp = await startSmtp(port);
      const mail = await mailTo(smtp, 'down@contoso.com');
      const confirm = await call(t.app, {
        method: 'PUT',
        url: '/v2/user/confirm',
        body: { token: codeIn(mail), email: 'down@contoso.com' },
      });
      expect(confirm.statusCode).toBe(200);
      await expect.poll(async () => (await outbox()).sent_at, { timeout: 5_000 }).not.toBeNull();
      expect(smtp.messages.filter((m) => m.to.includes('down@contoso.com'))).toHaveLength(1);
      // Delivered: the stored copy no longer holds the code.
      const sent = await outbox();
      expect(sent.text_body + sent.html_body + sent.subject).not.toContain(codeIn(mail));
    } finally {
      await t.close();
      await smtp?.close();
    }
  });

  it('keeps retrying through a long SMTP outage and gives up only after 72 hours, clearing the body', async () => {
    const port = await freePort();
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, RATE_LIMIT_SCALE: '100' });
    try {
      for (const email of ['old@contoso.com', 'many@contoso.com']) {
        expect((await call(t.app, { method: 'POST', url: '/v2/user', body: { email } })).statusCode).toBe(201);
      }
      const db = t.app.db.kysely;
      const row = (to: string) =>
        db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow();
      // The worker is retrying these rows meanwhile: take a row the way the worker claims one (so
      // that an attempt in flight cannot write its stale count over ours), change it, release it.
      const rewrite = async (to: string, set: { created_at?: number; attempts?: number }) => {
        await expect
          .poll(
            async () => {
              const claimed = await db
                .updateTable('mail_outbox')
                .set({ locked_until: Date.now() + 60_000 })
                .where('to_address', '=', to)
                .where('locked_until', '<', Date.now())
                .executeTakeFirst();
              return Number(claimed.numUpdatedRows);
            },
            { timeout: 10_000 },
          )
          .toBe(1);
        await db
          .updateTable('mail_outbox')
          .set({ ...set, next_attempt_at: 0, locked_until: 0 })
          .where('to_address', '=', to)
          .execute();
      };
      // Queued just over 72 h ago: the next failure is the last one.
      await rewrite('old@contoso.com', { created_at: Date.now() - GIVE_UP_AFTER_MS - 60_000 });
      // Many failures already (more than the old cap of 20), but young: it keeps going.
      await rewrite('many@contoso.com', { attempts: 40 });
      await expect.poll(async () => (await row('old@contoso.com')).failed_at, { timeout: 10_000 }).not.toBeNull();
      const failed = await row('old@contoso.com');
      expect({ subject: failed.subject, text: failed.text_body, html: failed.html_body }).toEqual({
        subject: '',
        text: '',
        html: '',
      });
      // A code mail that old is past its code's lifetime too: dropped as expired (an invitation, valid
      // 7 days, reaches the 72 h limit first: gave_up with the last error).
      expect(failed.last_error).toMatch(/^(expired|gave_up): /);
      await expect.poll(async () => (await row('many@contoso.com')).attempts, { timeout: 10_000 }).toBeGreaterThan(40);
      const retrying = await row('many@contoso.com');
      expect(retrying.failed_at).toBeNull();
      expect(retrying.text_body).toMatch(/\d{6}/);
    } finally {
      await t.close();
    }
  });

  it('without SMTP_URL writes each mail to DATA_DIR/outbox as .eml and .json, with one log line', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'suite-outbox-'));
    const { lines, stream } = logCapture();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
      PUBLIC_URL: 'https://suite.example.org',
      MAIL_RETRY_BASE_MS: '50',
      WEB_DIST: join(dataDir, 'no-web'),
    });
    const app = await buildApp(config, { logger: { level: 'info', stream } });
    await app.ready();
    try {
      const res = await app.inject({ method: 'POST', url: '/api/v2/user', payload: { email: 'dev@contoso.com' } });
      expect(res.statusCode).toBe(201);
      const dir = join(dataDir, 'outbox');
      // The .json is written last, and whole (renamed into place): once it is there, both files are.
      const written = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []);
      await expect.poll(() => written().length, { timeout: 5_000 }).toBe(1);
      const json = written()[0] ?? '';
      expect(readdirSync(dir).sort()).toEqual([json.replace('.json', '.eml'), json]);
      const saved = JSON.parse(readFileSync(join(dir, json), 'utf8'));
      expect(saved.to).toBe('dev@contoso.com');
      expect(saved.text).toMatch(/^\d{6}$/m);
      expect(saved.text).toContain('https://suite.example.org');
      const eml = readFileSync(join(dir, json.replace('.json', '.eml')), 'utf8');
      expect(eml).toMatch(/^To: dev@contoso.com/m);
      // The log line follows the files (written after them, through an asynchronous stream).
      await expect.poll(() => lines.filter((l) => l.includes('dev outbox')).length).toBe(1);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
