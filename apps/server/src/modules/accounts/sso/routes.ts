import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCEPTED_TERMS_VERSION,
  API,
  API_PREFIX,
  ErrorBodySchema,
  HandoffRequestSchema,
  HandoffResponseSchema,
  SSO_REQUEST_TTL_SECONDS,
  SessionResponseSchema,
  SsoCompleteRegisterRequestSchema,
  SsoDiscoverRequestSchema,
  SsoDiscoverResponseSchema,
  SsoReauthResponseSchema,
  SsoStartQuerySchema,
  pageUrl,
  type SsoErrorReason,
} from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { AccountsDeps } from '../deps.js';
import { errorResponses, orFail } from '../http.js';
import { usersRepository } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';
import { SsoFailure, ssoContextOf } from '../strategies/sso-failure.js';
import { recordAudit } from '../../audit/index.js';
import { oidcRoutes } from '../strategies/oidc/routes.js';
import { samlRoutes } from '../strategies/saml/routes.js';
import { ssoFlow } from './service.js';
import { providerSessions } from './sessions.js';
import { ssoLogoutRoutes } from './logout-routes.js';

const tags = ['sso'];
/**
 * The browser-binding cookie of a sign-in with a provider (HttpOnly, SameSite=Lax, short-lived): set by
 * the start, checked by the OIDC callback and by the /auth page's same-origin hand-off exchange (so also
 * after SAML's cross-site POST, which brings no Lax cookie), hence the path covers both.
 */
export const BINDING_COOKIE = 'suite_sso';
const COOKIE_PATH = API_PREFIX;
const Redirect = { 302: z.null().describe('redirect') };

/** The browser-binding cookie's options: sent back on the provider's top-level return, never to scripts. */
export const bindingCookieOf = (publicUrl: string) =>
  ({ path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:') }) as const;

/**
 * Single sign-on: discovery, start, the /auth hand-off exchange, the fresh proof and the
 * terms-only welcome step; the providers' return addresses are the strategies' own routes
 * (strategies/oidc/routes.ts, strategies/saml/routes.ts), answered through this flow. Every failure of a sign-in with a
 * provider ends on /login-error-sso?reason=… (logged with its cause, counted), never a 500, never a session.
 */
const ssoRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  const { config } = deps;
  const flow = ssoFlow(deps, {
    signedIn: (info) =>
      app.log.info(
        { sso: info },
        `sso: signed in through ${info.protocol} connection ${info.connection} of ${info.domain} (${info.account} account ${info.accountId})`,
      ),
    warn: (info, message) => app.log.warn({ sso: info }, message),
  });
  const bindingCookie = bindingCookieOf(config.publicUrl);
  const device = (request: FastifyRequest) => request.headers['user-agent']?.slice(0, 256) ?? null;

  /**
   * A refusal joins the audit trail of the domain it concerns (when the flow got that far: an answer
   * with no known request names no domain), with the person's address when the provider sent one: the
   * domain's administrators see why their people could not sign in. A failing trail never changes the
   * answer.
   */
  async function auditFailure(request: FastifyRequest, step: string, reason: SsoErrorReason, error: unknown) {
    const context = ssoContextOf(error);
    if (!context?.domain) return;
    await recordAudit(deps.db, {
      kind: 'sso_failed',
      action: step,
      domain: context.domain,
      target: context.email ? { id: null, email: context.email } : null,
      reason,
      ip: request.ip,
      details: {
        detail: error instanceof SsoFailure ? error.detail.slice(0, 500) : 'the provider could not be reached',
      },
    }).catch((failure: unknown) => request.log.warn({ err: failure }, 'sso: audit event not recorded'));
  }

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
      // Readable text in the message itself: an operator reading the log sees the cause without a parser.
      if (error instanceof SsoFailure)
        request.log.warn(
          { sso: { protocol, reason, detail: error.detail } },
          `sso: sign-in refused (${protocol}, ${reason}): ${error.detail}`,
        );
      else request.log.error({ err: error, sso: { protocol, reason } }, `sso: ${protocol} sign-in failed`);
      app.recordSsoFailure(protocol, reason);
      await auditFailure(request, protocol, reason, error);
      target = `${config.publicUrl}${pageUrl('loginErrorSso', {}, { reason })}`;
      reply.clearCookie(BINDING_COOKIE, bindingCookie);
    }
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
        const started = await flow.start(request.query);
        if (started.kind === 'not-configured') {
          target = `${config.publicUrl}/user/login?sso=not-configured`;
        } else {
          target = started.url;
          reply.setCookie(BINDING_COOKIE, started.binding, { ...bindingCookie, maxAge: SSO_REQUEST_TTL_SECONDS });
        }
      } catch (error) {
        const reason: SsoErrorReason = error instanceof SsoFailure ? error.reason : 'unavailable';
        request.log.warn(
          { err: error, sso: { reason } },
          `sso: start failed (${reason}): ${error instanceof SsoFailure ? error.detail : String(error)}`,
        );
        app.recordSsoFailure('start', reason);
        await auditFailure(request, 'start', reason, error);
        target = `${config.publicUrl}${pageUrl('loginErrorSso', {}, { reason })}`;
      }
      return reply.header('cache-control', 'no-store').redirect(target, 302);
    },
  );

  // The protocols' own return addresses: each strategy registers them; who may come in is decided here.
  oidcRoutes(app, {
    finish: (request, reply, run) => finish(request, reply, 'oidc', run),
    callback: (input) => flow.oidcCallback(input),
    bindingOf: (request) => request.cookies[BINDING_COOKIE],
    device,
  });
  samlRoutes(app, {
    finish: (request, reply, run) => finish(request, reply, 'saml', run),
    refuse: (request, reply, detail) => {
      request.log.warn(
        { sso: { protocol: 'saml', reason: 'invalid', detail } },
        `sso: sign-in refused (saml, invalid): ${detail}`,
      );
      app.recordSsoFailure('saml', 'invalid');
      return reply
        .header('cache-control', 'no-store')
        .redirect(`${config.publicUrl}${pageUrl('loginErrorSso', {}, { reason: 'invalid' })}`, 302);
    },
    acs: (input) => flow.samlAcs(input),
    metadata: () => flow.samlMetadata(),
    device,
  });
  ssoLogoutRoutes(app, deps);

  app.post(
    API.handoff,
    {
      schema: {
        tags,
        body: HandoffRequestSchema,
        response: { 200: HandoffResponseSchema, ...errorResponses, 404: ErrorBodySchema },
      },
      preHandler: app.limit({ name: 'sso-handoff', max: 30, window: '1 minute' }),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const answer = await orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, () =>
        flow.exchange({
          token: request.body.handoff,
          device: device(request),
          ip: request.ip,
          binding: request.cookies[BINDING_COOKIE],
          confirmed: request.body.confirm === true,
        }),
      );
      if (!('confirm_as' in answer)) reply.clearCookie(BINDING_COOKIE, bindingCookie);
      return answer;
    },
  );

  // A fresh proof for an account that signs in through its provider: the provider is asked to
  // authenticate the person again (OIDC max_age=0 and prompt=login, SAML ForceAuthn); its answer marks
  // this session proved instead of making a new one.
  app.post(
    API.ssoReauth,
    { config: { session: 'full' }, schema: { tags, response: { 200: SsoReauthResponseSchema, ...errorResponses } } },
    async (request, reply) => {
      const session = request.user!;
      const started = await orFail('ERR_SERVICE_UNAVAILABLE', request.log, () =>
        flow.reauth({ id: session.id, email: session.email, sessionId: session.sessionId }).catch((error: unknown) => {
          // The provider could not be reached: a 503 the page can show, not a 500.
          if (error instanceof SsoFailure) {
            request.log.warn({ sso: { reason: error.reason, detail: error.detail } }, 'sso: reauth start failed');
            throw new AppError('ERR_SERVICE_UNAVAILABLE');
          }
          throw error;
        }),
      );
      if (started.kind === 'not-configured') throw new AppError('ERR_FORBIDDEN');
      reply.setCookie(BINDING_COOKIE, started.binding, { ...bindingCookie, maxAge: SSO_REQUEST_TTL_SECONDS });
      return reply.header('cache-control', 'no-store').send({ url: started.url });
    },
  );

  app.put(
    API.ssoCompleteRegister,
    {
      config: { session: 'welcome' },
      schema: {
        tags,
        body: SsoCompleteRegisterRequestSchema.extend({ accepted_terms: z.unknown().optional() }),
        response: { 200: SessionResponseSchema, ...errorResponses },
      },
    },
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
        // What the welcome session proved (its methods and assurance) carries over, as in sign-up.
        const next = await sessionFor(deps, user, {
          method: 'sso',
          device: session.device,
          amr: session.amr,
          aal: session.aal,
          db: trx,
        });
        await deps.sessions.revoke(user.id, { only: session.sessionId }, trx);
        await providerSessions(trx, config.keys.sso).move(session.sessionId, next.token, user.id);
        return next;
      });
    },
  );
};

export default ssoRoutes;
