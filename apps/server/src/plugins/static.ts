import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX, ERRORS } from '@suite/contract';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and the
 * history fallback for every client route. Unknown API paths get a JSON 404.
 */
export default fp(async function staticWeb(app: FastifyInstance, opts: { webDist: string }) {
  const indexFile = join(opts.webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: opts.webDist,
      index: false,
      wildcard: false,
      serve: true,
      cacheControl: false,
      setHeaders(res, path) {
        const hashed = /[\\/]assets[\\/]/.test(path);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const indexHtml = hasWeb ? readFileSync(indexFile, 'utf8') : '';

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    // Room names and other route values may contain dots (/meet/team.sync): only a missing built
    // asset, or a file-like path that a browser did not ask for as a page, gets the 404.
    const isAsset = path.startsWith('/assets/');
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
    const acceptsHtml = String(request.headers.accept ?? '').includes('text/html');
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !isAsset && (!looksLikeFile || acceptsHtml);
    if (!isApi && wantsPage && hasWeb) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    return reply.status(404).send({ error_code: 'ERR_NOT_FOUND', message: ERRORS.ERR_NOT_FOUND.message });
  });
});
