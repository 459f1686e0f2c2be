import type { FastifyRequest } from 'fastify';

/** Query parameters that carry secrets: share links, hand-off and invite tokens, meeting JWTs. */
const SECRET_PARAMS = /([?&](?:share_key|token|inviteToken|invite_token|jwt)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Fastify's default request log fields, with secrets in the query string replaced. */
export function reqSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
