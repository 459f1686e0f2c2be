import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { SendMailOptions, Transporter, TransportOptions } from 'nodemailer';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { renderEmail, type MailMessage, type MailSite } from '../emails/index.js';
import { dkimSign } from './dkim.js';
import { outboxRepository } from './outbox-repository.js';

export interface Mailer {
  /** Renders the message and writes it to the outbox with `db` (pass the caller's transaction). */
  queue(db: Kysely<Database>, message: MailMessage): Promise<string>;
  /** Wakes the outbox job (jobs/mail-outbox.ts) after the caller's transaction committed. */
  kick(): void;
  /** The outbox job listens here for kicks. */
  onKick(listener: () => void): void;
  /** Sends one outbox row now: over SMTP, or into the dev outbox without SMTP_URL. The outbox job calls it. */
  deliver: Deliver;
  /** Cuts the transport's connections: a send in flight fails at once (shutdown). */
  abort(): void;
}

type OutboxRow = Database['mail_outbox'];
export type Deliver = (
  row: Pick<OutboxRow, 'id' | 'to_address' | 'subject' | 'text_body' | 'html_body'>,
) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export function mailSite(config: AppConfig): MailSite {
  return { appTitle: config.appTitle, publicUrl: config.publicUrl, codeTtlMs: config.codeTtlMs };
}

/** Outbox insert: usable without a running server (the admin CLI queues invites this way). */
export async function queueMail(db: Kysely<Database>, message: MailMessage, site: MailSite): Promise<string> {
  const rendered = await renderEmail(message, site);
  const id = randomUUID();
  await outboxRepository(db).insert({
    id,
    kind: message.kind,
    to_address: message.to,
    subject: rendered.subject,
    text_body: rendered.text,
    html_body: rendered.html,
  });
  return id;
}

/**
 * The message as a mail provider expects it: MAIL_FROM, MAIL_REPLY_TO when set, the bounce address
 * MAIL_ENVELOPE_FROM as SMTP `MAIL FROM` when set, Message-ID on PUBLIC_URL's domain (the outbox id, so a
 * retried send keeps its id), Date, Auto-Submitted (RFC 3834: no auto-replies, no vacation notices).
 * The same for SMTP and the dev outbox; signed by mailMessage when DKIM_* is configured.
 */
function mailOptions(config: AppConfig, row: Parameters<Deliver>[0], now = new Date()): SendMailOptions {
  return {
    from: config.mail.from,
    ...(config.mail.replyTo ? { replyTo: config.mail.replyTo } : {}),
    ...(config.mail.envelopeFrom ? { envelope: { from: config.mail.envelopeFrom, to: row.to_address } } : {}),
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    messageId: `<${row.id}@${new URL(config.publicUrl).hostname}>`,
    date: now,
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
  };
}

/**
 * What is handed to the transport: the options as they are, or, with DKIM, the message built and signed
 * (dkim.ts: over-signed From, Subject and Reply-To) and sent raw with its envelope.
 */
async function mailMessage(config: AppConfig, row: Parameters<Deliver>[0]): Promise<SendMailOptions> {
  const options = mailOptions(config, row);
  if (!config.dkim) return options;
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer/index.js');
  const raw = await new MailComposer(options).compile().build();
  const envelope = { from: config.mail.envelopeFrom ?? addressOf(config.mail.from), to: row.to_address };
  return { envelope, raw: dkimSign(raw, config.dkim) };
}

/** `"Name" <a@b>` → `a@b`. */
const addressOf = (from: string) => /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

/**
 * The transport, made on the first mail: nodemailer is loaded then, not at start (a server that sends
 * no mail never loads it). close() cuts the transport's connections when it exists.
 */
function lazyTransport(options: TransportOptions): { get(): Promise<Transporter>; close(): void } {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(options))),
    close: () => void transport?.then((t) => t.close()).catch(() => undefined),
  };
}

function smtpDeliver(config: AppConfig, smtpUrl: string): { deliver: Deliver; close(): void } {
  // Pooled: connections are reused across mails instead of one TCP + TLS + EHLO per mail, one per
  // mail the outbox sends at once (MAIL_CONCURRENCY). Every step has a timeout, so a silent server never
  // holds a send for long.
  const transport = lazyTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: config.mailConcurrency,
    maxMessages: 100,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as TransportOptions);
  return {
    deliver: async (row) => {
      await (await transport.get()).sendMail(await mailMessage(config, row));
    },
    close: transport.close,
  };
}

/**
 * Writes `data` under a temporary name beside `path`, then renames it into place (atomic on one file
 * system): whoever reads the outbox (a developer's tool, the tests) sees a whole file or none.
 */
async function writeWhole(path: string, data: string | Buffer): Promise<void> {
  const partial = `${path}.partial`;
  await writeFile(partial, data);
  await rename(partial, path);
}

/** No SMTP_URL: each mail becomes DATA_DIR/outbox/<id>.eml + .json and one log line. */
function fileDeliver(config: AppConfig, log: FastifyBaseLogger): { deliver: Deliver; close(): void } {
  const dir = join(config.dataDir, 'outbox');
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' } as TransportOptions);
  return {
    deliver: async (row) => {
      const info = await (await transport.get()).sendMail(await mailMessage(config, row));
      await mkdir(dir, { recursive: true });
      const eml = join(dir, `${row.id}.eml`);
      await writeWhole(eml, info.message as Buffer);
      const json = { id: row.id, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body };
      // The .json last: a reader that finds it finds the .eml too.
      await writeWhole(join(dir, `${row.id}.json`), JSON.stringify(json, null, 2));
      log.info({ to: row.to_address, file: eml }, 'mail written to the dev outbox (no SMTP_URL)');
    },
    close: transport.close,
  };
}

export default fp(
  async function mailer(app: FastifyInstance, opts: { config: AppConfig }) {
    const { config } = opts;
    const site = mailSite(config);
    const transport = config.smtpUrl ? smtpDeliver(config, config.smtpUrl) : fileDeliver(config, app.log);
    const kicks = new EventEmitter();
    app.decorate('mailer', {
      queue: (db, message) => queueMail(db, message, site),
      kick: () => kicks.emit('kick'),
      onKick: (listener) => kicks.on('kick', listener),
      deliver: transport.deliver,
      abort: () => transport.close(),
    } satisfies Mailer);
    // Closed after the outbox job has stopped (onClose runs in reverse registration order).
    app.addHook('onClose', async () => transport.close());
  },
  { name: 'mailer' },
);
