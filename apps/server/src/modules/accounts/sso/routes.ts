import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCEPTED_TERMS_VERSION,
  API,
  API_PREFIX,
  ErrorBodySchema,
  HandoffRequestSchema,
  SSO_REQUEST_TTL_SECONDS,
  SessionResponseSchema,
  SsoCompleteRegisterRequestSchema,
  SsoDiscoverRequestSchema,
  SsoDiscoverResponseSchema,
  SsoStartQuerySchema,
  pageUrl,
  type SsoErrorReason,
} from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { AccountsDeps } from '../deps.js';
import { errorResponses, languageOf, orFail, signedIn } from '../http.js';
import { usersRepository } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';
import { SsoFailure } from '../strategies/sso-failure.js';
import { ssoFlow } from './service.js';

const tags = ['sso'];
/** The browser-binding cookie of an OpenID Connect sign-in (HttpOnly, SameSite=Lax, short-lived). */
const BINDING_COOKIE = 'suite_sso';
const COOKIE_PATH = `${API_PREFIX}/sso`;
/** A SAML response is a few KiB; an IdP that sends more than this is not one we talk to. */
const ACS_BODY_LIMIT = 256 * 1024;
const Redirect = { 302: z.null().describe('redirect') };

/**
 * Single sign-on (issue 24): discovery, start, the providers' return addresses (fixed: docs/sso.md),
 * the /auth hand-off exchange and the terms-only welcome step. Every failure of a sign-in with a
 * provider ends on /login-error-sso?reason=… (logged with its cause, counted), never a 500, never a session.
 */
const ssoRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  const { config } = deps;
  const flow = ssoFlow(deps);
  const secure = config.publicUrl.startsWith('https:');
  const bindingCookie = { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure } as const;
  const device = (request: FastifyRequest) => request.headers['user-agent']?.slice(0, 256) ?? null;

  /** Ends a provider's return: the hand-off on success, the error page (reason only) otherwise. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    protocol: 'oidc' | 'saml',
    run: () => Promise<string>,
  ) {
    let target: string;
    try {
      target = await run();
    } catch (error) {
      const reason: SsoErrorReason = error instanceof SsoFailure ? error.reason : 'unavailable';
      if (error instanceof SsoFailure)
        request.log.warn({ sso: { protocol, reason, detail: error.detail } }, 'sso: sign-in refused');
      else request.log.error({ err: error, sso: { protocol, reason } }, 'sso: sign-in failed');
      app.recordSsoFailure(protocol, reason);
      target = `${config.publicUrl}${pageUrl('loginErrorSso', {}, { reason })}`;
    }
    if (protocol === 'oidc') reply.clearCookie(BINDING_COOKIE, bindingCookie);
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(target, 302);
  }

  app.post(
    API.ssoDiscover,
    {
      schema: { tags, body: SsoDiscoverRequestSchema, response: { 200: SsoDiscoverResponseSchema, ...errorResponses } },
      preHandler: app.limit({ name: 'sso-discover', max: 120, window: '1 minute' }),
    },
    async (request) => orFail('ERR_OTHER', request.log, () => flow.discover(request.body.email)),
  );

  app.get(
    API.ssoStart,
    {
      schema: { tags, querystring: SsoStartQuerySchema, response: { ...Redirect, ...errorResponses } },
      preHandler: app.limit({ name: 'sso-start', max: 60, window: '1 minute' }),
    },
    async (request, reply) => {
      let target: string;
      try {
        const started = await flow.start(request.query.email);
        if (started.kind === 'not-configured') {
          target = `${config.publicUrl}/user/login?sso=not-configured`;
        } else {
          target = started.url;
          if (started.binding)
            reply.setCookie(BINDING_COOKIE, started.binding, { ...bindingCookie, maxAge: SSO_REQUEST_TTL_SECONDS });
        }
      } catch (error) {
        const reason: SsoErrorReason = error instanceof SsoFailure ? error.reason : 'unavailable';
        request.log.warn({ err: error, sso: { reason } }, 'sso: start failed');
        app.recordSsoFailure('start', reason);
        target = `${config.publicUrl}${pageUrl('loginErrorSso', {}, { reason })}`;
      }
      return reply.header('cache-control', 'no-store').redirect(target, 302);
    },
  );

  app.get(
    API.ssoOidcCallback,
    {
      schema: {
        tags,
        querystring: z.record(z.string(), z.string().max(4096)),
        response: { ...Redirect, ...errorResponses },
      },
      preHandler: app.limit({ name: 'sso-callback', max: 60, window: '1 minute' }),
    },
    async (request, reply) =>
      finish(request, reply, 'oidc', () =>
        flow.oidcCallback({
          query: request.query,
          binding: request.cookies[BINDING_COOKIE],
          language: languageOf(request),
          device: device(request),
        }),
      ),
  );

  // The IdP posts the response as a form (HTTP-POST binding), cross-site: no cookie comes with it; the
  // response is bound to the request we stored (its ID, used once) instead.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post(
    API.ssoSamlAcs,
    {
      schema: {
        tags,
        body: z.object({ SAMLResponse: z.string().max(ACS_BODY_LIMIT), RelayState: z.string().max(1024).optional() }),
        response: { ...Redirect, ...errorResponses },
      },
      preHandler: app.limit({ name: 'sso-acs', max: 60, window: '1 minute' }),
      attachValidation: true,
    },
    async (request, reply) =>
      finish(request, reply, 'saml', async () => {
        if (request.validationError) throw new SsoFailure('invalid', 'no SAMLResponse in the form');
        return flow.samlAcs({
          samlResponse: request.body.SAMLResponse,
          language: languageOf(request),
          device: device(request),
        });
      }),
  );

  app.get(API.ssoSamlMetadata, { schema: { tags, response: { 200: z.string() } } }, async (_request, reply) =>
    reply
      .type('application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await flow.samlMetadata()),
  );

  app.post(
    API.handoff,
    {
      schema: {
        tags,
        body: HandoffRequestSchema,
        response: { 200: SessionResponseSchema, ...errorResponses, 404: ErrorBodySchema },
      },
      preHandler: app.limit({ name: 'sso-handoff', max: 30, window: '1 minute' }),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, () =>
        flow.exchange(request.body.handoff, device(request)),
      );
    },
  );

  app.put(
    API.ssoCompleteRegister,
    signedIn(
      app,
      {
        tags,
        body: SsoCompleteRegisterRequestSchema.extend({ accepted_terms: z.unknown().optional() }),
        response: { 200: SessionResponseSchema, ...errorResponses },
      },
      [],
      'welcome',
    ),
    async (request) => {
      const session = request.user!;
      const terms = request.body.accepted_terms as { version?: unknown } | undefined;
      if (terms?.version !== ACCEPTED_TERMS_VERSION) throw new AppError('ACCEPT_TERMS');
      if (session.method !== 'sso') throw new AppError('ERR_FORBIDDEN');
      // Like the password welcome step: the registration, the full session and the end of the welcome
      // one commit together, so a failure between them leaves the step to retry, not half done.
      return deps.db.transaction().execute(async (trx) => {
        const users = usersRepository(trx);
        if (!(await users.completeSsoRegistration(session.id, ACCEPTED_TERMS_VERSION)))
          throw new AppError('ERR_FORBIDDEN');
        const user = (await users.byId(session.id))!;
        const next = await sessionFor(deps, user, { method: 'sso', device: session.device, db: trx });
        await deps.sessions.revoke(user.id, { only: session.sessionId }, trx);
        return next;
      });
    },
  );
};

export default ssoRoutes;
