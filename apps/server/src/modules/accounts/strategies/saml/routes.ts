import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API, SAML_RESPONSE_MAX_BYTES, type Language } from '@suite/contract';
import { errorResponses, languageOf } from '../../http.js';
import { SsoFailure } from '../sso-failure.js';

type App = Parameters<FastifyPluginAsyncZod>[0];

/** What the single-sign-on flow (sso/) gives the SAML strategy's routes. */
export interface SamlReturn {
  /** Runs the return and answers its redirect: the hand-off (or /app), or the error page. */
  finish(request: FastifyRequest, reply: FastifyReply, run: () => Promise<string>): Promise<FastifyReply>;
  /** The error page for `reason`, logged and counted, when the answer never reaches `finish`. */
  refuse(request: FastifyRequest, reply: FastifyReply, detail: string): FastifyReply;
  acs(input: { samlResponse: string; language: Language; device: string | null }): Promise<string>;
  metadata(): Promise<string>;
  device(request: FastifyRequest): string | null;
}

const Redirect = { 302: z.null().describe('redirect') };

/**
 * The SAML strategy's own routes: our metadata and the assertion consumer service. The IdP posts the
 * response as a form (HTTP-POST binding), cross-site: the response is bound to the request we stored
 * (its ID, used once), and the hand-off carries the browser binding on to the /auth page.
 */
export function samlRoutes(app: App, flow: SamlReturn): void {
  const tags = ['sso'];
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: SAML_RESPONSE_MAX_BYTES },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post(
    API.ssoSamlAcs,
    {
      schema: {
        tags,
        body: z.object({
          SAMLResponse: z.string().max(SAML_RESPONSE_MAX_BYTES),
          RelayState: z.string().max(1024).optional(),
        }),
        response: { ...Redirect, ...errorResponses },
      },
      // Anonymous and expensive (XML signature checks): fewer per client than the other SSO doors.
      preHandler: app.limit({ name: 'sso-acs', max: 20, window: '1 minute' }),
      bodyLimit: SAML_RESPONSE_MAX_BYTES,
      attachValidation: true,
      // A body over the limit is refused by its length, before it is read or decoded; the person still
      // lands on the error page, not on a JSON 413.
      errorHandler: (error, request, reply) => {
        if ((error as { code?: string }).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
        return flow.refuse(request, reply, 'response over the size limit');
      },
    },
    async (request, reply) =>
      flow.finish(request, reply, async () => {
        if (request.validationError) throw new SsoFailure('invalid', 'no SAMLResponse in the form');
        return flow.acs({
          samlResponse: request.body.SAMLResponse,
          language: languageOf(request),
          device: flow.device(request),
        });
      }),
  );

  app.get(API.ssoSamlMetadata, { schema: { tags, response: { 200: z.string() } } }, async (_request, reply) =>
    reply
      .type('application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await flow.metadata()),
  );
}
