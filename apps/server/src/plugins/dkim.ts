import { createHash, createSign } from 'node:crypto';

export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * The signed header fields, then the over-signed ones listed once more: a field named in `h=` more often
 * than it occurs is signed as absent (RFC 6376 §5.4.2), so a relay cannot add a second From or Subject,
 * or a Reply-To, without breaking the signature. nodemailer's own signer cannot do this (it lists each
 * name once, and only the fields present).
 */
const DKIM_SIGNED = ['from', 'to', 'subject', 'date', 'message-id', 'reply-to'];
const DKIM_OVERSIGNED = ['from', 'subject', 'reply-to'];

/** Relaxed header canonicalization: lower-case name, unfolded, runs of white space as one space. */
const relaxedHeader = (name: string, value: string) =>
  `${name.toLowerCase()}:${value
    .replace(/\r?\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;

/** Relaxed body canonicalization: white space runs as one space, none at line ends, no trailing empty lines. */
function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length && lines.at(-1) === '') lines.pop();
  return lines.length ? `${lines.join('\r\n')}\r\n` : '';
}

/** The header block's fields, in order, each with its (folded) value. */
function parseHeaders(block: string): { name: string; value: string }[] {
  const fields: { name: string; value: string }[] = [];
  for (const line of block.split('\r\n')) {
    const last = fields.at(-1);
    if (/^[ \t]/.test(line) && last) last.value += `\r\n${line}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) fields.push({ name: line.slice(0, colon), value: line.slice(colon + 1) });
    }
  }
  return fields;
}

/** `raw` (a whole message) with a DKIM-Signature (rsa-sha256, relaxed/relaxed) in front. */
export function dkimSign(raw: Buffer, key: DkimKey, now = Date.now()): Buffer {
  // Line ends as they travel (SMTP sends CRLF; a part built with bare LF is converted on the way).
  const text = raw.toString('latin1').replace(/\r?\n/g, '\r\n');
  const split = text.indexOf('\r\n\r\n');
  const headerBlock = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split + 4);
  const bodyHash = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
  const fields = parseHeaders(headerBlock);
  const names = [...DKIM_SIGNED, ...DKIM_OVERSIGNED];
  // Each name in h= takes the next instance of that field from the bottom; one with none left adds nothing.
  const used = new Map<string, number>();
  let signed = '';
  for (const name of names) {
    const instances = fields.filter((f) => f.name.toLowerCase() === name);
    const n = used.get(name) ?? 0;
    used.set(name, n + 1);
    const field = instances[instances.length - 1 - n];
    if (field) signed += `${relaxedHeader(field.name, field.value)}\r\n`;
  }
  const tags = [
    'v=1',
    'a=rsa-sha256',
    'c=relaxed/relaxed',
    `d=${key.domainName}`,
    `s=${key.keySelector}`,
    `t=${Math.floor(now / 1000)}`,
    `h=${names.join(':')}`,
    `bh=${bodyHash}`,
    'b=',
  ].join(';\r\n ');
  // Signed as sent (folded between tags; relaxed canonicalization unfolds), with b= empty.
  signed += relaxedHeader('DKIM-Signature', ` ${tags}`);
  const signature = createSign('RSA-SHA256').update(signed, 'latin1').sign(key.privateKey, 'base64');
  // Only b= is folded further: white space inside it is ignored by the verifier.
  const b = signature.replace(/(.{72})(?=.)/g, '$1\r\n ');
  return Buffer.from(`DKIM-Signature: ${tags}${b}\r\n${text}`, 'latin1');
}
