import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API,
  CompleteRegisterRequestSchema,
  ConfirmCodeRequestSchema,
  EmailOnlyRequestSchema,
  ErrorBodySchema,
  MeResponseSchema,
  MessageResponseSchema,
  SessionResponseSchema,
  SignupRequestSchema,
  SignupResponseSchema,
  UpdatePasswordRequestSchema,
  UserIdParamsSchema,
  type Language,
} from '@suite/contract';
import type { AppConfig } from '../../config.js';
import type { AccountsDeps } from './deps.js';
import { pickLanguage } from './language.js';
import * as recovery from './recovery.js';
import * as users from './service.js';
import * as signup from './signup.js';
import { purgeExpiredCodes } from './codes.js';
import { orFail } from './session.js';

export const accountsDeps = (app: FastifyInstance, config: AppConfig): AccountsDeps => ({
  db: app.db.kysely,
  config,
  mailer: app.mailer,
  sessions: app.sessions,
});

export const languageOf = (request: FastifyRequest, body?: { language?: Language | undefined }): Language =>
  pickLanguage(body?.language, request.headers['accept-language']);

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
};
/** Routes behind a captcha can also answer 503 (verify service unreachable). */
const captchaErrors = { ...errors, 503: ErrorBodySchema };
const WINDOW = '10 minutes';

/** Terms are checked by the service so that a missing acceptance answers ACCEPT_TERMS, not a generic 400. */
const CompleteRegisterBody = CompleteRegisterRequestSchema.extend({ accepted_terms: z.unknown().optional() });

/** Sign-up, e-mail codes, registration, password change and recovery (spec §7). */
const usersRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  const deps = accountsDeps(app, config);
  const limits = (name: string, perIp: number, perAddress: number) => [
    app.limit({ name: `${name}-ip`, max: perIp, window: WINDOW }),
    app.limit({ name: `${name}-addr`, max: perAddress, window: WINDOW, by: { bodyField: 'email' } }),
  ];
  /** Signed-in calls that hash a password: the session first, then per IP and per user. */
  const signedInLimits = (name: string, perIp: number, perUser: number) => [
    app.authenticate,
    app.limit({ name: `${name}-ip`, max: perIp, window: WINDOW }),
    app.limit({ name: `${name}-user`, max: perUser, window: WINDOW, by: 'user' }),
  ];
  const tags = ['accounts'];
  const bearer = [{ bearer: [] }];

  app.post(
    API.signup,
    {
      schema: { tags, body: SignupRequestSchema, response: { 201: SignupResponseSchema, ...captchaErrors } },
      preHandler: [...limits('signup', 20, 5), app.captcha('signup')],
    },
    async (request, reply) =>
      reply.status(201).send(await signup.signup(deps, request.body, languageOf(request, request.body))),
  );

  app.put(
    API.confirm,
    {
      schema: { tags, body: ConfirmCodeRequestSchema, response: { 200: SessionResponseSchema, ...errors } },
      preHandler: limits('confirm', 30, 10),
    },
    async (request) =>
      orFail('ERR_OTHER', request.log, () => signup.confirm(deps, request.body, languageOf(request, request.body))),
  );

  app.put(
    API.resendConfirmation,
    {
      schema: { tags, body: EmailOnlyRequestSchema, response: { 200: MessageResponseSchema, ...captchaErrors } },
      preHandler: [...limits('resend', 10, 5), app.captcha('resend')],
    },
    async (request) => signup.resendConfirmation(deps, request.body.email, languageOf(request, request.body)),
  );

  app.put(
    API.completeRegister,
    {
      schema: {
        tags,
        security: bearer,
        body: CompleteRegisterBody,
        response: { 200: SessionResponseSchema, ...errors },
      },
      preHandler: signedInLimits('register', 20, 10),
    },
    async (request) => users.completeRegister(deps, request.user!, request.body),
  );

  app.put(
    API.updateUser,
    {
      schema: {
        tags,
        security: bearer,
        params: UserIdParamsSchema,
        body: UpdatePasswordRequestSchema,
        response: { 200: SessionResponseSchema, ...errors },
      },
      preHandler: signedInLimits('password', 20, 10),
    },
    async (request) =>
      orFail('ERR_COULD_NOT_UPDATE_PASSWORD', request.log, () =>
        users.updatePassword(deps, request.user!, request.params.id, request.body),
      ),
  );

  app.post(
    API.forgotPassword,
    {
      schema: { tags, body: EmailOnlyRequestSchema, response: { 200: MessageResponseSchema, ...captchaErrors } },
      // The recovery screen sends a 'recovery' token; the code screen's "send again" calls this route with a 'resend' one.
      preHandler: [...limits('recovery', 10, 5), app.captcha('recovery', 'resend')],
    },
    async (request) =>
      orFail('ERR_COULD_NOT_RECOVER_PASSWORD', request.log, () =>
        recovery.forgotPassword(deps, request.body.email, languageOf(request, request.body)),
      ),
  );

  app.put(
    API.forgotPasswordConfirm,
    {
      schema: { tags, body: ConfirmCodeRequestSchema, response: { 200: SessionResponseSchema, ...errors } },
      preHandler: limits('recovery-code', 30, 10),
    },
    async (request) =>
      orFail('ERR_OTHER', request.log, () =>
        recovery.forgotPasswordConfirm(deps, request.body, languageOf(request, request.body)),
      ),
  );

  // Expired codes (and the unmailed ones stored for unknown recovery addresses) are purged hourly.
  const purge = setInterval(() => {
    void purgeExpiredCodes(deps.db).catch((err: unknown) => app.log.warn({ err }, 'code purge failed'));
  }, 3_600_000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));

  app.get(
    API.me,
    {
      schema: { tags, security: bearer, response: { 200: MeResponseSchema, 401: ErrorBodySchema } },
      preHandler: app.authenticate,
    },
    async (request) => users.me(deps, request.user!),
  );
};

export default usersRoutes;
