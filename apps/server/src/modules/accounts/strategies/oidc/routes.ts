import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API, type Language } from '@suite/contract';
import { errorResponses, languageOf } from '../../http.js';

type App = Parameters<FastifyPluginAsyncZod>[0];

/** What the single-sign-on flow (sso/) gives the OpenID Connect strategy's return address. */
export interface OidcReturn {
  /** Runs the return and answers its redirect: the hand-off (or /app), or the error page. */
  finish(request: FastifyRequest, reply: FastifyReply, run: () => Promise<string>): Promise<FastifyReply>;
  callback(input: {
    connectionId: string | undefined;
    query: Record<string, string>;
    binding: string | undefined;
    language: Language;
    device: string | null;
  }): Promise<string>;
  /** The browser-binding cookie's value on this request. */
  bindingOf(request: FastifyRequest): string | undefined;
  device(request: FastifyRequest): string | null;
}

const Redirect = { 302: z.null().describe('redirect') };

/**
 * The OpenID Connect strategy's own routes: the provider's return. Each connection has its own redirect
 * URI (its id last), so a code can only come back to the connection that asked for it; the shared one
 * serves only connections made before, until the operator moves them (docs/sso.md).
 */
export function oidcRoutes(app: App, flow: OidcReturn): void {
  const tags = ['sso'];
  const handle = (connectionId: string | undefined, request: FastifyRequest, reply: FastifyReply) =>
    flow.finish(request, reply, () =>
      flow.callback({
        connectionId,
        query: request.query as Record<string, string>,
        binding: flow.bindingOf(request),
        language: languageOf(request),
        device: flow.device(request),
      }),
    );
  const querystring = z.record(z.string(), z.string().max(4096));
  const preHandler = app.limit({ name: 'sso-callback', max: 60, window: '1 minute' });
  app.get(
    API.ssoOidcCallback,
    { schema: { tags, querystring, response: { ...Redirect, ...errorResponses } }, preHandler },
    async (request, reply) => handle(undefined, request, reply),
  );
  app.get(
    `${API.ssoOidcCallback}/:connection`,
    {
      schema: {
        tags,
        params: z.object({ connection: z.string().max(64) }),
        querystring,
        response: { ...Redirect, ...errorResponses },
      },
      preHandler,
    },
    async (request, reply) => handle(request.params.connection, request, reply),
  );
}
