import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { pickEncoding } from './static.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const ENCODINGS = new Set(['br', 'gzip', 'identity'] as const);
/** Below this a JSON answer goes as it is: compressing would cost more than it saves. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * API JSON answers over 1 KiB compressed on the fly (br at a fast quality, else gzip), off the event
 * loop. Only serialized JSON bodies: streams (shared-file downloads, with or without Range) and
 * anything already encoded pass untouched.
 */
export default fp(async function compress(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.statusCode === 206 || reply.getHeader('content-encoding')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    if (Buffer.byteLength(payload) <= COMPRESS_THRESHOLD) return payload;
    const vary = reply.getHeader('vary');
    void reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = pickEncoding(request.headers['accept-encoding'], ENCODINGS);
    if (encoding === 'identity') return payload;
    const body =
      encoding === 'br'
        ? await brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
        : await gzipAsync(payload, { level: 6 });
    void reply.header('content-encoding', encoding).removeHeader('content-length');
    return body;
  });
});
