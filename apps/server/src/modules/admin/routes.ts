import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminSsoResponseSchema,
  AdminSsoSetupRequestSchema,
  SsoTestResultResponseSchema,
  SsoTestStartResponseSchema,
  ADMIN_API,
  API,
  AccessRequestCreateSchema,
  AccessRequestDecideSchema,
  AccessRequestLinkSchema,
  AccessRequestResponseSchema,
  AccessRequestsPageSchema,
  AccessRequestsQuerySchema,
  AddAdminRequestSchema,
  AdminAdminParamsSchema,
  AdminClaimResponseSchema,
  AdminIdParamsSchema,
  AdminInviteRequestSchema,
  AdminInviteResponseSchema,
  AdminListResponseSchema,
  AdminMeResponseSchema,
  AuditPageSchema,
  AuditQuerySchema,
  DecideRequestSchema,
  DomainParamSchema,
  ErrorBodySchema,
  OkSchema,
  PeoplePageSchema,
  PeopleQuerySchema,
  PersonActionRequestSchema,
  PersonResponseSchema,
  SecurityPolicySchema,
  SignupRulesSchema,
  UpdateSecurityPolicyRequestSchema,
  UpdateSignupRulesRequestSchema,
  matchLanguage,
  rankAcceptLanguage,
  type Language,
} from '@suite/contract';
import { addAdmin, adminMe, claimInfo, listAdmins, removeAdmin, verifyClaim } from './admins.js';
import { exportAudit, listAudit } from './audit.js';
import { setupSso, ssoState, ssoTestResult, startSsoTest } from './sso.js';
import { ssoTestSignIn } from '../accounts/index.js';
import type { AdminDeps } from './deps.js';
import { run } from './http.js';
import { actOnPerson, getPerson, invitePeople, listPeople, resendInvitation, type PersonAction } from './people.js';
import { createRequest, decideById, decideByLink, listRequests, previewByLink } from './requests.js';
import { getSecurityPolicy, getSignupRules, setSecurityPolicy, setSignupRules } from './rules.js';

const tags = ['admin'];
const errors = {
  400: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
  500: ErrorBodySchema,
  503: ErrorBodySchema,
};

const languageOf = (request: FastifyRequest, given?: Language): Language =>
  given ?? matchLanguage(rankAcceptLanguage(request.headers['accept-language']));

/** Signed-in console calls: the session, then a per-user limit (the console is a person's tool, not a batch API). */
const adminRoute = <S extends { response: object }>(app: FastifyInstance, schema: S, max = 300) => ({
  config: { session: 'full' as const },
  schema: { tags, ...schema, response: { ...errors, ...schema.response } },
  preHandler: [app.limit({ name: 'admin-user', max, window: '1 minute', by: 'user' })],
});

const PERSON_ACTIONS: [string, PersonAction][] = [
  [ADMIN_API.adminPersonDeactivate, 'deactivate'],
  [ADMIN_API.adminPersonReactivate, 'reactivate'],
  [ADMIN_API.adminPersonEndSessions, 'end_sessions'],
  [ADMIN_API.adminPersonResetTwoStep, 'reset_two_step'],
  [ADMIN_API.adminPersonRemovePasskeys, 'remove_passkeys'],
];

/** The console's API (contract admin.ts). Every service checks that the caller administers the domain. */
const adminRoutes: FastifyPluginAsyncZod<{ deps: AdminDeps }> = async (app, { deps }) => {
  app.get(ADMIN_API.adminMe, adminRoute(app, { response: { 200: AdminMeResponseSchema } }), (request) =>
    run(request.log, () => adminMe(deps, request.user!)),
  );
  app.get(ADMIN_API.adminClaim, adminRoute(app, { response: { 200: AdminClaimResponseSchema } }), (request) =>
    run(request.log, () => claimInfo(deps, request.user!)),
  );
  // Each check asks DNS: a few a minute per person is plenty.
  app.post(
    ADMIN_API.adminClaimVerify,
    {
      config: { session: 'full' },
      schema: { tags, response: { 200: AdminMeResponseSchema, ...errors } },
      preHandler: [app.limit({ name: 'admin-claim-user', max: 10, window: '1 minute', by: 'user' })],
    },
    (request) => run(request.log, () => verifyClaim(deps, request.user!, request.ip)),
  );

  app.get(
    ADMIN_API.adminAdmins,
    adminRoute(app, { params: DomainParamSchema, response: { 200: AdminListResponseSchema } }),
    (request) => run(request.log, () => listAdmins(deps, request.user!, request.params.domain)),
  );
  app.post(
    ADMIN_API.adminAdmins,
    adminRoute(app, {
      params: DomainParamSchema,
      body: AddAdminRequestSchema,
      response: { 200: AdminListResponseSchema },
    }),
    (request) =>
      run(request.log, () => addAdmin(deps, request.user!, request.params.domain, request.body.email, request.ip)),
  );
  app.delete(
    ADMIN_API.adminAdmin,
    adminRoute(app, { params: AdminAdminParamsSchema, response: { 200: AdminListResponseSchema } }),
    (request) =>
      run(request.log, () =>
        removeAdmin(deps, request.user!, request.params.domain, request.params.userId, request.ip),
      ),
  );

  app.get(
    ADMIN_API.adminPeople,
    adminRoute(app, { params: DomainParamSchema, querystring: PeopleQuerySchema, response: { 200: PeoplePageSchema } }),
    (request) => run(request.log, () => listPeople(deps, request.user!, request.params.domain, request.query)),
  );
  app.get(
    ADMIN_API.adminPerson,
    adminRoute(app, { params: AdminIdParamsSchema, response: { 200: PersonResponseSchema } }),
    (request) => run(request.log, () => getPerson(deps, request.user!, request.params.id)),
  );
  for (const [path, action] of PERSON_ACTIONS) {
    app.post(
      path,
      adminRoute(app, {
        params: AdminIdParamsSchema,
        body: PersonActionRequestSchema.optional(),
        response: { 200: PersonResponseSchema },
      }),
      (request) => run(request.log, () => actOnPerson(deps, request.user!, request.params.id, action, request.ip)),
    );
  }
  app.post(
    ADMIN_API.adminPersonResendInvitation,
    adminRoute(app, {
      params: AdminIdParamsSchema,
      body: PersonActionRequestSchema.optional(),
      response: { 200: PersonResponseSchema },
    }),
    (request) =>
      run(request.log, () =>
        resendInvitation(
          deps,
          request.user!,
          request.params.id,
          languageOf(request, request.body?.language),
          request.ip,
        ),
      ),
  );
  app.post(
    ADMIN_API.adminInvitations,
    adminRoute(
      app,
      { params: DomainParamSchema, body: AdminInviteRequestSchema, response: { 200: AdminInviteResponseSchema } },
      30,
    ),
    (request) =>
      run(request.log, () =>
        invitePeople(
          deps,
          request.user!,
          request.params.domain,
          request.body,
          languageOf(request, request.body.language),
          request.ip,
        ),
      ),
  );

  app.get(
    ADMIN_API.adminSignupRules,
    adminRoute(app, { params: DomainParamSchema, response: { 200: SignupRulesSchema } }),
    (request) => run(request.log, () => getSignupRules(deps, request.user!, request.params.domain)),
  );
  app.put(
    ADMIN_API.adminSignupRules,
    adminRoute(app, {
      params: DomainParamSchema,
      body: UpdateSignupRulesRequestSchema,
      response: { 200: SignupRulesSchema },
    }),
    (request) =>
      run(request.log, () => setSignupRules(deps, request.user!, request.params.domain, request.body, request.ip)),
  );
  app.get(
    ADMIN_API.adminSecurityPolicy,
    adminRoute(app, { params: DomainParamSchema, response: { 200: SecurityPolicySchema } }),
    (request) => run(request.log, () => getSecurityPolicy(deps, request.user!, request.params.domain)),
  );
  app.put(
    ADMIN_API.adminSecurityPolicy,
    adminRoute(app, {
      params: DomainParamSchema,
      body: UpdateSecurityPolicyRequestSchema,
      response: { 200: SecurityPolicySchema },
    }),
    (request) =>
      run(request.log, () => setSecurityPolicy(deps, request.user!, request.params.domain, request.body, request.ip)),
  );

  app.get(
    ADMIN_API.adminRequests,
    adminRoute(app, {
      params: DomainParamSchema,
      querystring: AccessRequestsQuerySchema,
      response: { 200: AccessRequestsPageSchema },
    }),
    (request) => run(request.log, () => listRequests(deps, request.user!, request.params.domain, request.query)),
  );
  for (const [path, decision] of [
    [ADMIN_API.adminRequestApprove, 'approve'],
    [ADMIN_API.adminRequestRefuse, 'refuse'],
  ] as const) {
    app.post(
      path,
      adminRoute(app, {
        params: AdminIdParamsSchema,
        body: DecideRequestSchema.optional(),
        response: { 200: AccessRequestResponseSchema },
      }),
      (request) => run(request.log, () => decideById(deps, request.user!, request.params.id, decision, request.ip)),
    );
  }

  app.get(
    ADMIN_API.adminSso,
    adminRoute(app, { params: DomainParamSchema, response: { 200: AdminSsoResponseSchema } }),
    (request) => run(request.log, () => ssoState(deps, request.user!, request.params.domain)),
  );
  app.put(
    ADMIN_API.adminSso,
    adminRoute(
      app,
      { params: DomainParamSchema, body: AdminSsoSetupRequestSchema, response: { 200: AdminSsoResponseSchema } },
      20,
    ),
    (request) => run(request.log, () => setupSso(deps, request.user!, request.params.domain, request.body, request.ip)),
  );
  // The Test sign-in: accounts runs the flow; the console decides who may start it and read its result.
  const tests = ssoTestSignIn(app, deps.config);
  app.post(
    ADMIN_API.adminSsoTest,
    adminRoute(app, { params: DomainParamSchema, response: { 200: SsoTestStartResponseSchema } }, 20),
    (request, reply) =>
      run(request.log, () =>
        startSsoTest(
          deps,
          { start: (domain, userId) => tests.start(reply, domain, userId), result: tests.result },
          request.user!,
          request.params.domain,
        ),
      ),
  );
  app.get(
    ADMIN_API.adminSsoTest,
    adminRoute(app, { params: DomainParamSchema, response: { 200: SsoTestResultResponseSchema } }),
    (request) =>
      run(request.log, () =>
        ssoTestResult(deps, { start: async () => null, result: tests.result }, request.user!, request.params.domain),
      ),
  );

  app.get(
    ADMIN_API.adminAudit,
    adminRoute(app, { params: DomainParamSchema, querystring: AuditQuerySchema, response: { 200: AuditPageSchema } }),
    (request) => run(request.log, () => listAudit(deps, request.user!, request.params.domain, request.query)),
  );
  app.get(
    ADMIN_API.adminAuditExport,
    adminRoute(app, { params: DomainParamSchema, querystring: AuditQuerySchema, response: { 200: z.any() } }, 10),
    async (request, reply) => {
      const stream = await run(request.log, () =>
        exportAudit(deps, request.user!, request.params.domain, request.query),
      );
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${request.params.domain}-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  // Public: the same 202 whatever the address, its domain and its administrators.
  app.post(
    API.accessRequests,
    {
      schema: { tags, body: AccessRequestCreateSchema, response: { 202: OkSchema, ...errors } },
      preHandler: [app.limit({ name: 'access-request-ip', max: 20, window: '1 hour' })],
    },
    async (request, reply) => {
      await run(request.log, () => createRequest(deps, request.body, languageOf(request, request.body.language)));
      return reply.code(202).send({ ok: true });
    },
  );
  app.post(
    API.accessRequestLink,
    {
      schema: { tags, body: AccessRequestLinkSchema, response: { 200: AccessRequestResponseSchema, ...errors } },
      preHandler: [app.limit({ name: 'access-request-link-ip', max: 60, window: '10 minutes' })],
    },
    (request) => run(request.log, () => previewByLink(deps, request.body.token)),
  );
  app.post(
    API.accessRequestDecide,
    {
      schema: { tags, body: AccessRequestDecideSchema, response: { 200: AccessRequestResponseSchema, ...errors } },
      preHandler: [app.limit({ name: 'access-request-link-ip', max: 60, window: '10 minutes' })],
    },
    (request) => run(request.log, () => decideByLink(deps, request.body.token, request.body.decision, request.ip)),
  );
};

export default adminRoutes;
