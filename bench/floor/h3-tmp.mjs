import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
const E = process.env;
const body = '{"appTitle":"Suite","mainAppUrl":"http://x/app","meetDomain":null,"jaasAppId":null,"captchaSiteKey":null,"hideHeader":false,"hideFooter":false,"environment":"production","errorReportingDsn":null,"publicSignup":true,"maxUploadBytes":104857600,"termsUrls":{"en":"http://127.0.0.1:4555/legal/terms-en.html","pt":"http://127.0.0.1:4555/legal/terms-pt-br.html"}}';
const app = Fastify({
  logger: E.LOG ? { level: 'info', ...(E.DEST === 'noop' ? { stream: { write() {} } } : E.DEST === 'sync' ? { stream: (await import('pino')).default.destination({ dest: 1, sync: true }) } : {}) } : false,
  ...(E.GENID ? { genReqId: (req) => { const g = req.headers['x-request-id']; return typeof g === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(g) ? g : randomUUID(); } } : {}),
  ...(E.LOG ? { disableRequestLogging: true } : {}),
  ...(E.LAZY ? { childLoggerFactory: (await import('/work/main/apps/server/dist/src/server.js'.replace('server.js','lazy-tmp.mjs'))).lazyChildLogger } : {}),
});
if (E.LOG && !E.NOACC) app.addHook('onResponse', (request, reply, done) => { request.log.info({ req: { method: request.method, url: request.url, host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort }, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed'); done(); });
if (E.HDR) { const h = Object.entries({ 'content-security-policy': "default-src 'none'; frame-ancestors 'none'", 'cross-origin-resource-policy': 'same-origin', 'x-content-type-options': 'nosniff' }); app.addHook('onRequest', (q, reply, done) => { for (const [k, v] of h) reply.raw.setHeader(k, v); done(); }); }
if (E.HOOKS) { app.addHook('onSend', (q, r, p, done) => done(null, p)); app.addHook('onResponse', (q, r, done) => done()); }
app.get('/api/config', (req, reply) => { reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(body); });
await app.listen({ port: Number(E.PORT), host: '127.0.0.1' });
