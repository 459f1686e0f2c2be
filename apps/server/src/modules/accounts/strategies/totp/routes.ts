import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  OkSchema,
  RecoveryCodesResponseSchema,
  SecondStepRequestSchema,
  SessionResponseSchema,
  TotpDisableRequestSchema,
  TotpEnableRequestSchema,
  TotpSetupResponseSchema,
  EnrolRequestSchema,
  EnrolResponseSchema,
  EnrolSetupRequestSchema,
} from '@suite/contract';
import type { AccountsDeps } from '../../deps.js';
import {
  SECOND_STEP_PER_ADDRESS,
  addressLimits,
  captchaErrorResponses,
  errorResponses,
  orFail,
  signedInLimits,
} from '../../http.js';
import { finishWithSession } from '../../login/finish.js';
import { secondFactorAlarm } from '../../identity/alarms.js';
import { answerSecondStep, confirmEnrolment, disable, startEnrolment, trustedBrowserCookie } from './service.js';
import { TRUSTED_BROWSER_COOKIE, trustedBrowserCookieOptions } from '../../identity/trusted-browser.js';
import { enrol, enrolSetup } from './enrol.js';

const tags = ['accounts'];

/**
 * The authenticator app: its enrolment and removal from the Security panel (signed in, each code
 * check limited per user like a password check), and the code step of a sign-in (anonymous, per
 * address and client like the e-mailed code checks).
 */
const totpRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  // Enrolment at sign-in (the domain requires two-step verification): anonymous, the pending token of
  // the password step, limited like the code step.
  app.post(
    API.loginEnrolSetup,
    {
      schema: {
        tags,
        body: EnrolSetupRequestSchema,
        response: { 200: TotpSetupResponseSchema, ...captchaErrorResponses },
      },
      preHandler: addressLimits(app, 'enrol-setup', 60, 20, 'all', 'email'),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => enrolSetup(deps, request.body)),
  );
  app.post(
    API.loginEnrol,
    {
      schema: { tags, body: EnrolRequestSchema, response: { 200: EnrolResponseSchema, ...captchaErrorResponses } },
      preHandler: addressLimits(app, 'enrol', 30, 10, 'failures', 'email'),
    },
    async (request) =>
      orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, () =>
        enrol(deps, request.body, (user, proved) =>
          finishWithSession(deps, user, { proved, device: request.headers['user-agent'] ?? null, ip: request.ip }),
        ),
      ),
  );

  app.post(
    API.totpSetup,
    {
      config: { session: 'full' },
      schema: { tags, response: { 200: TotpSetupResponseSchema, ...errorResponses } },
      preHandler: signedInLimits(app, 'totp-setup', 60, 20),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => startEnrolment(deps, request.user!)),
  );
  app.post(
    API.totpEnable,
    {
      config: { session: 'full' },
      schema: {
        tags,
        body: TotpEnableRequestSchema,
        response: { 200: RecoveryCodesResponseSchema, ...errorResponses },
      },
      preHandler: signedInLimits(app, 'totp-code', 30, 10),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => confirmEnrolment(deps, request.user!, request.body)),
  );
  app.post(
    API.totpDisable,
    {
      config: { session: 'full' },
      schema: { tags, body: TotpDisableRequestSchema, response: { 200: OkSchema, ...errorResponses } },
      preHandler: signedInLimits(app, 'totp-code', 30, 10),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => disable(deps, request.user!, request.body)),
  );

  app.post(
    API.secondStep,
    {
      schema: {
        tags,
        body: SecondStepRequestSchema,
        response: { 200: SessionResponseSchema, ...captchaErrorResponses },
      },
      preHandler: addressLimits(app, 'second-step', 30, SECOND_STEP_PER_ADDRESS, 'failures', 'email', 'code', {
        alarm: secondFactorAlarm(deps, 'password-known'),
      }),
    },
    async (request, reply) =>
      orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, async () => {
        const { user, first, second } = await answerSecondStep(deps, request.body);
        const session = await finishWithSession(deps, user, {
          proved: [...first, second],
          device: request.headers['user-agent'] ?? null,
          ip: request.ip,
        });
        // Earned here only: a completed sign-in with the second factor, when the person asked for it.
        if (request.body.trust_browser) {
          const cookie = await trustedBrowserCookie(deps, user, request.cookies[TRUSTED_BROWSER_COOKIE]);
          if (cookie)
            reply.setCookie(
              TRUSTED_BROWSER_COOKIE,
              cookie,
              trustedBrowserCookieOptions(deps.config.publicUrl.startsWith('https:')),
            );
        }
        return session;
      }),
  );
};

export default totpRoutes;
