import { createServer, type Server } from 'node:http';

export const SECRET = 'secret-0f3c9a1e7b';

/**
 * A stand-in for Google's siteverify on loopback. The token says what to answer: `ok:<action>[:…]` (score
 * 0.9), `edge:<action>` (0.5, the minimum), `low:<action>` (0.3), `fail:<action>` (success false); the
 * answer's hostname (where the token was solved) is `localhost`, PUBLIC_URL's host, unless a part `host=<name>` says otherwise.
 * `mode` makes it answer HTTP 500 or never answer.
 */
export interface StandIn {
  url: string;
  received: { contentType: string | undefined; form: Record<string, string> }[];
  mode: 'answer' | 'http500' | 'hang';
  close(): Promise<void>;
}

export async function startSiteverify(): Promise<StandIn> {
  const standIn: StandIn = { url: '', received: [], mode: 'answer', close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      standIn.received.push({ contentType: req.headers['content-type'], form });
      if (standIn.mode === 'hang') return;
      if (standIn.mode === 'http500' || req.method !== 'POST') {
        res.writeHead(500).end('oops');
        return;
      }
      const [verdict = '', action = '', ...rest] = (form.response ?? '').split(':');
      const hostname = rest.find((part) => part.startsWith('host='))?.slice(5) ?? 'localhost';
      const score = { ok: 0.9, edge: 0.5, low: 0.3 }[verdict];
      const answer =
        form.secret === SECRET && score !== undefined
          ? { success: true, score, action, challenge_ts: new Date().toISOString(), hostname }
          : {
              success: false,
              'error-codes': [form.secret === SECRET ? 'invalid-input-response' : 'invalid-input-secret'],
            };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  standIn.url = `http://127.0.0.1:${port}/recaptcha/api/siteverify`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}

/** The settings that turn the captcha on, verified by the stand-in at `verifyUrl`. */
export const captchaEnv = (verifyUrl: string) => ({
  CAPTCHA_SITE_KEY: 'site',
  CAPTCHA_SECRET: SECRET,
  CAPTCHA_VERIFY_URL: verifyUrl,
});
