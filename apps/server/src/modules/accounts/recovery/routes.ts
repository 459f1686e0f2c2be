import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  ConfirmCodeRequestSchema,
  EmailOnlyRequestSchema,
  MessageResponseSchema,
  SessionResponseSchema,
} from '@suite/contract';
import { RECOVERY_ANSWER_FLOOR_MS, answerNoSoonerThan } from '../../../uniform-time.js';
import type { AccountsDeps } from '../deps.js';
import { addressLimits, askerOf, captchaErrorResponses, languageOf, orFail } from '../http.js';
import { forgotPassword, forgotPasswordConfirm } from './service.js';

const tags = ['accounts'];

/** Password recovery: an e-mailed code, then a session for setting a new password (spec §7). */
const recoveryRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.post(
    API.forgotPassword,
    {
      schema: {
        tags,
        body: EmailOnlyRequestSchema,
        response: { 200: MessageResponseSchema, ...captchaErrorResponses },
      },
      // The recovery screen sends a 'recovery' token; the code screen's "send again" calls this route with a 'resend' one.
      preHandler: [...addressLimits(app, 'recovery', 10, 5, 'all'), app.captcha('recovery', 'resend')],
    },
    // Known and unknown addresses answer alike, in time too.
    async (request) =>
      answerNoSoonerThan(RECOVERY_ANSWER_FLOOR_MS, () =>
        orFail('ERR_COULD_NOT_RECOVER_PASSWORD', request.log, () =>
          forgotPassword(deps, request.body.email, languageOf(request, request.body), askerOf(request)),
        ),
      ),
  );

  app.put(
    API.forgotPasswordConfirm,
    {
      schema: {
        tags,
        body: ConfirmCodeRequestSchema,
        response: { 200: SessionResponseSchema, ...captchaErrorResponses },
      },
      preHandler: addressLimits(app, 'recovery-code', 30, 10, 'failures', 'email', 'code'),
    },
    async (request) =>
      orFail('ERR_OTHER', request.log, () =>
        forgotPasswordConfirm(deps, request.body, languageOf(request, request.body), askerOf(request)),
      ),
  );
};

export default recoveryRoutes;
