import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { serverRoot } from '../config.js';
import { EMAIL_FONTS, EMAIL_FONTS_PATH, EMAIL_LOGO_PATH } from './model.js';

const require = createRequire(import.meta.url);
/** Mail clients and their image proxies fetch these from other origins (fonts in CORS mode). */
const CROSS_ORIGIN = {
  'cache-control': 'public, max-age=86400',
  'cross-origin-resource-policy': 'cross-origin',
  'access-control-allow-origin': '*',
};

/**
 * What the mails load from PUBLIC_URL: the logo at /email/logo.png and Poppins under /email/fonts/
 * (stable addresses: mails already delivered keep pointing at them). Served with
 * Cross-Origin-Resource-Policy: cross-origin and CORS instead of the site's same-origin.
 */
export default async function emailAssets(app: FastifyInstance) {
  const logo = readFileSync(join(serverRoot(), 'assets/email/logo.png'));
  app.get(EMAIL_LOGO_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('image/png').headers(CROSS_ORIGIN).send(logo),
  );
  const fonts = new Map<string, Promise<Buffer>>();
  for (const { file } of EMAIL_FONTS) {
    app.get(`${EMAIL_FONTS_PATH}/${file}`, { schema: { hide: true } }, async (_request, reply) => {
      // Read on first use (about 95 KB for the four), not at start-up.
      let data = fonts.get(file);
      if (!data) fonts.set(file, (data = readFile(require.resolve(`@fontsource/poppins/files/${file}`))));
      return reply
        .type('font/woff2')
        .headers(CROSS_ORIGIN)
        .send(await data);
    });
  }
}
