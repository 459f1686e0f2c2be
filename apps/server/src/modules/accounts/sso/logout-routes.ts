import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API, SAML_RESPONSE_MAX_BYTES } from '@suite/contract';
import { SsoFailure } from '../strategies/sso-failure.js';
import type { AccountsDeps } from '../deps.js';
import { ssoLogoutFlow } from './logout.js';

type App = Parameters<FastifyPluginAsyncZod>[0];

const SloForm = z.object({
  SAMLRequest: z.string().max(SAML_RESPONSE_MAX_BYTES).optional(),
  SAMLResponse: z.string().max(SAML_RESPONSE_MAX_BYTES).optional(),
  RelayState: z.string().max(1024).optional(),
  SigAlg: z.string().max(256).optional(),
  Signature: z.string().max(2048).optional(),
});

/**
 * The providers' logout doors: SAML's SLO endpoint (HTTP-Redirect and HTTP-POST; published in our SP
 * metadata) and OpenID Connect back-channel logout (`/<connection id>`, registered at the provider).
 * Anonymous: what lets them end sessions is the provider's signature, checked in the flow.
 */
export function ssoLogoutRoutes(app: App, deps: AccountsDeps): void {
  const tags = ['sso'];
  const flow = ssoLogoutFlow(deps);
  const signInPage = `${deps.config.publicUrl}/user/login`;
  const limit = app.limit({ name: 'sso-logout', max: 60, window: '1 minute' });

  const slo = async (
    request: { log: { warn(details: object, message: string): void; info(details: object, message: string): void } },
    form: z.infer<typeof SloForm>,
    binding: 'redirect' | 'post',
    rawQuery: string,
  ): Promise<string> => {
    const value = form.SAMLRequest ?? form.SAMLResponse;
    if (!value) return signInPage;
    try {
      const { url, ended } = await flow.samlSlo(
        {
          binding,
          kind: form.SAMLRequest ? 'request' : 'response',
          value,
          ...(binding === 'redirect' ? { query: form as Record<string, string>, rawQuery } : {}),
        },
        form.RelayState ?? '',
      );
      if (form.SAMLRequest) request.log.info({ sso: { protocol: 'saml', ended } }, 'sso: logout from the provider');
      return url;
    } catch (error) {
      // A refused logout message ends nothing; the browser lands on the sign-in page, never on a 500.
      const detail = error instanceof SsoFailure ? error.detail : String(error);
      request.log.warn({ sso: { protocol: 'saml', detail } }, 'sso: logout message refused');
      return signInPage;
    }
  };

  app.get(API.ssoSamlSlo, { schema: { tags, querystring: SloForm }, preHandler: limit }, async (request, reply) => {
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const target = await slo(request, request.query, 'redirect', rawQuery);
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(target, 302);
  });
  app.post(
    API.ssoSamlSlo,
    { schema: { tags, body: SloForm }, preHandler: limit, bodyLimit: SAML_RESPONSE_MAX_BYTES },
    async (request, reply) => {
      const target = await slo(request, request.body, 'post', '');
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(target, 302);
    },
  );

  app.post(
    `${API.ssoOidcBackchannelLogout}/:connectionId`,
    {
      schema: {
        tags,
        params: z.object({ connectionId: z.string().max(64) }),
        body: z.object({ logout_token: z.string().max(16_384) }),
      },
      preHandler: limit,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const ended = await flow.oidcBackchannel(request.params.connectionId, request.body.logout_token);
        request.log.info({ sso: { protocol: 'oidc', ended } }, 'sso: logout from the provider');
        return reply.code(200).send();
      } catch (error) {
        if (!(error instanceof SsoFailure)) throw error;
        request.log.warn({ sso: { protocol: 'oidc', detail: error.detail } }, 'sso: logout token refused');
        // Back-Channel Logout 1.0, 2.8: a token that is not accepted is answered 400.
        return reply
          .code(error.reason === 'unavailable' ? 503 : 400)
          .header('retry-after', error.reason === 'unavailable' ? '30' : undefined)
          .send({ error: 'invalid_request', error_description: error.reason });
      }
    },
  );
}
