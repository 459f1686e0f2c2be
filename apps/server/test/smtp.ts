import { createServer, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it, with the parts a person would read decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The Message-ID header, `<…@…>` ('' when there is none): what receivers deduplicate by. */
  messageId: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpFixture {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** The most mails this server was receiving at one time (overlapping SMTP transactions). */
  mostInFlight: number;
  /** Refuses recipients with an SMTP reply (changeable while running). */
  refuse: (address: string) => { code: number; text: string } | undefined;
  /** Resolves with the first (already or later) received mail matching `match`. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A port nothing listens on (for the SMTP-down test and to start the server on it later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A real SMTP server on 127.0.0.1 (no TLS, no auth) that keeps every message it accepts. */
export async function startSmtp(
  port = 0,
  options: {
    delayMs?: () => number;
    /** An SMTP reply code and text to refuse this recipient with (e.g. 550 for an unknown user). */
    refuse?: (address: string) => { code: number; text: string } | undefined;
    /**
     * true: the mail is taken (kept in `messages`, as a receiver would deliver it) and the connection
     * cut before the 250 reaches the sender: the lost answer of RFC 5321 §6.1.
     */
    dropAnswer?: (mail: ReceivedMail) => boolean;
  } = {},
): Promise<SmtpFixture> {
  const messages: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  let inFlight = 0;
  // The connections' sockets by the client's port (smtp-server gives onData the session, not the socket).
  const sockets = new Map<number, Socket>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = fixture.refuse(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      inFlight++;
      fixture.mostInFlight = Math.max(fixture.mostInFlight, inFlight);
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      // `delayMs`: how long the server takes to accept a mail (a slow relay), 0 by default.
      stream.on('end', () => setTimeout(finish, options.delayMs?.() ?? 0));
      const finish = () => {
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'));
        mail.from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mail.to = session.envelope.rcptTo.map((r) => r.address);
        messages.push(mail);
        inFlight--;
        for (const w of [...waiters]) {
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        if (options.dropAnswer?.(mail)) sockets.get(session.remotePort)?.destroy();
        else callback();
      };
    },
  });
  server.server.on('connection', (socket: Socket) => {
    const port = socket.remotePort;
    if (port === undefined) return;
    sockets.set(port, socket);
    socket.once('close', () => sockets.delete(port));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // A client that resets its connection (an instance killed mid-session) is that client's failure: the
  // server goes on (without a listener the 'error' event would end the test process).
  server.on('error', () => undefined);
  const address = server.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const fixture: SmtpFixture = {
    refuse: options.refuse ?? (() => undefined),
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    messages,
    mostInFlight: 0,
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching mail arrived')), timeoutMs);
        waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return fixture;
}

/** The 6-digit code of a code mail. */
export function codeIn(mail: ReceivedMail): string {
  const match = /^\s*(\d{6})\s*$/m.exec(mail.text);
  if (!match?.[1]) throw new Error(`no code in mail: ${mail.subject}`);
  return match[1];
}

/** The first link to the given path in a mail's text. */
export function linkIn(mail: ReceivedMail, path: string): URL {
  const match = new RegExp(`https?://\\S+${path.replace(/[/.?]/g, '\\$&')}\\S*`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in mail: ${mail.subject}`);
  return new URL(match[0]);
}

// --- a small MIME reader: enough for what nodemailer writes (multipart/alternative, QP, base64) ---

function splitHead(part: string): { headers: Map<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = at < 0 ? part : part.slice(0, at);
  const body = at < 0 ? '' : part.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, mode: string, text: string) =>
    mode.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
  );
}

function parseMail(raw: string): ReceivedMail {
  const { headers, body } = splitHead(raw);
  const mail: ReceivedMail = {
    from: '',
    to: [],
    subject: decodeWords(headers.get('subject') ?? ''),
    messageId: headers.get('message-id') ?? '',
    text: '',
    html: '',
    raw,
  };
  const collect = (type: string, part: Map<string, string>, content: string) => {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (boundary) {
      const pieces = content.split(`--${boundary}`).slice(1, -1);
      for (const piece of pieces) {
        const inner = splitHead(piece.replace(/^\r?\n/, ''));
        collect(inner.headers.get('content-type') ?? 'text/plain', inner.headers, inner.body);
      }
      return;
    }
    const decoded = decodeBody(content, part.get('content-transfer-encoding'));
    if (type.startsWith('text/html')) mail.html = decoded;
    else if (type.startsWith('text/plain')) mail.text = decoded;
  };
  collect(headers.get('content-type') ?? 'text/plain', headers, body);
  return mail;
}
