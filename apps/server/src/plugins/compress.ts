import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { pickEncoding } from './static.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const ENCODINGS = new Set(['br', 'gzip', 'identity'] as const);
/** Below this a JSON answer goes as it is: compressing would cost more than it saves. */
const COMPRESS_THRESHOLD = 1024;

/**
 * API JSON answers over 1 KiB compressed on the fly (br at a fast quality, else gzip), off the event
 * loop. Only serialized JSON bodies: streams (shared-file downloads, with or without Range) and
 * anything already encoded pass untouched.
 */
async function compress(app: FastifyInstance) {
  // A callback hook: the common answer (small, or not JSON) passes on without a promise of its own.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    // A string of n UTF-16 units is at most 3n bytes: a short one is under the threshold without counting.
    if (payload.length <= COMPRESS_THRESHOLD / 3 || reply.statusCode === 206) return done(null, payload);
    if (reply.hasHeader('content-encoding')) return done(null, payload);
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
    if (Buffer.byteLength(payload) <= COMPRESS_THRESHOLD) return done(null, payload);
    const vary = reply.getHeader('vary');
    void reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = pickEncoding(request.headers['accept-encoding'], ENCODINGS);
    if (encoding === 'identity') return done(null, payload);
    const body =
      encoding === 'br'
        ? brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
        : gzipAsync(payload, { level: 6 });
    body.then(
      (compressed) => {
        void reply.header('content-encoding', encoding).removeHeader('content-length');
        done(null, compressed);
      },
      (error: Error) => done(error),
    );
  });
}

export default fp(compress, { name: 'compress' });
