import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { createTestApp, type TestApp } from './helpers.js';

/** Node's HTTP timeouts as server.ts sets them (HTTP_*_SECONDS), on a real listening socket. */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ HTTP_REQUEST_TIMEOUT_SECONDS: '2', HTTP_HEADERS_TIMEOUT_SECONDS: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

/** Sends `head`, then `body` one byte every 100 ms; resolves with what the server answered when it closes. */
function trickle(head: string, body: string): Promise<{ answer: string; bytesSent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < body.length && socket.writable) socket.write(body[sent++] ?? '');
    }, 100);
    const bound = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after 15 s (${sent} of ${body.length} bytes sent)`));
    }, 15_000);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(bound);
      resolve({ answer, bytesSent: sent });
    });
    socket.write(head);
  });
}

describe('HTTP timeouts', () => {
  it('a request body that trickles is cut with 408 when the request time is up', async () => {
    const body = JSON.stringify({ email: `${'a'.repeat(200)}@contoso.com` });
    const { answer, bytesSent } = await trickle(
      `POST /api/v2/user HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expect(bytesSent).toBeLessThan(body.length);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"error_code":"ERR_REQUEST"');
    // Nothing was done with the half body: no account, no mail.
    const mails = await t.app.db.kysely.selectFrom('mail_outbox').select('id').execute();
    expect(mails).toEqual([]);
  });

  it('headers that trickle are cut too', async () => {
    const { answer } = await trickle(
      'GET /api/health HTTP/1.1\r\n',
      `Host: localhost\r\nX-Slow: ${'y'.repeat(200)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
