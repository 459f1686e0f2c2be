import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API,
  CompleteRegisterRequestSchema,
  EmailOnlyRequestSchema,
  MessageResponseSchema,
  SessionResponseSchema,
  SignupRequestSchema,
  SignupResponseSchema,
} from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { AccountsDeps } from '../deps.js';
import { addressLimits, captchaErrorResponses, errorResponses, languageOf, askerOf, signedInLimits } from '../http.js';
import { completeRegister } from './register.js';
import * as signup from './service.js';

/** Terms are checked by the service so that a missing acceptance answers ACCEPT_TERMS, not a generic 400. */
const CompleteRegisterBody = CompleteRegisterRequestSchema.extend({ accepted_terms: z.unknown().optional() });
const tags = ['accounts'];

/** 400, not the login's 403: the sign-up screen shows the matching text for 400/401 only (spec §8). */
const signupStatus = (error: unknown): never => {
  if (error instanceof AppError && error.code === 'ERR_SSO_LOGIN_ONLY') throw new AppError(error.code, { status: 400 });
  throw error;
};

/** Sign-up, resending its e-mailed code (strategies/email-code checks it) and the welcome step that completes the registration (spec §4). */
const signupRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.post(
    API.signup,
    {
      schema: { tags, body: SignupRequestSchema, response: { 201: SignupResponseSchema, ...captchaErrorResponses } },
      preHandler: [...addressLimits(app, 'signup', 20, 5, 'all'), app.captcha('signup')],
    },
    async (request, reply) => {
      const result = await signup
        .signup(deps, request.body, languageOf(request, request.body), askerOf(request))
        .catch(signupStatus);
      return reply.status(201).send(result);
    },
  );

  app.put(
    API.resendConfirmation,
    {
      schema: {
        tags,
        body: EmailOnlyRequestSchema,
        response: { 200: MessageResponseSchema, ...captchaErrorResponses },
      },
      preHandler: [...addressLimits(app, 'resend', 10, 5, 'all'), app.captcha('resend')],
    },
    async (request) =>
      signup
        .resendConfirmation(deps, request.body.email, languageOf(request, request.body), askerOf(request))
        .catch(signupStatus),
  );

  app.put(
    API.completeRegister,
    {
      // The welcome step's own session is taken here (and by /me and logout), by no other route.
      config: { session: 'welcome' },
      schema: {
        tags,
        body: CompleteRegisterBody,
        response: { 200: SessionResponseSchema, ...errorResponses },
      },
      preHandler: signedInLimits(app, 'register', 20, 10),
    },
    async (request) => completeRegister(deps, request.user!, request.body),
  );
};

export default signupRoutes;
