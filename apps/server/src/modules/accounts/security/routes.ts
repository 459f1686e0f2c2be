import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  AddPasskeyRequestSchema,
  ErrorBodySchema,
  NewRecoveryCodesRequestSchema,
  OkSchema,
  PasskeyIdParamsSchema,
  PasskeyLoginRequestSchema,
  PasskeyOptionsSchema,
  PasskeySchema,
  RecoveryCodesResponseSchema,
  RenamePasskeyRequestSchema,
  SecondStepRequestSchema,
  SecurityStateSchema,
  SessionResponseSchema,
  TotpDisableRequestSchema,
  TotpEnableRequestSchema,
  TotpSetupResponseSchema,
} from '@suite/contract';
import type { AccountsDeps } from '../deps.js';
import { passwordKnownAlarm } from '../identity/alarms.js';
import { addressLimits, captchaErrorResponses, errorResponses, orFail, signedIn, signedInLimits } from '../http.js';
import { finishWithSession } from '../login/finish.js';
import { usersRepository } from '../identity/repository.js';
import {
  answerSecondStep,
  confirmEnrolment,
  disable,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  startEnrolment,
  totpAvailable,
  totpOn,
} from '../strategies/totp/service.js';
import {
  addPasskey,
  answerPasskeyLogin,
  listPasskeys,
  loginOptions,
  registrationOptions,
  removePasskey,
  renamePasskey,
} from '../strategies/webauthn/service.js';

const tags = ['accounts'];

/**
 * Passkeys and two-step verification (issue 21): the Security panel's calls (signed in), the passkey
 * sign-in and the code step after a password (anonymous, throttled like the other code checks).
 */
const securityRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  const device = (ua: string | undefined) => ua ?? null;

  app.get(API.security, signedIn(app, { tags, response: { 200: SecurityStateSchema } }), async (request) => {
    const user = await usersRepository(deps.db).byId(request.user!.id);
    const on = await totpOn(deps, request.user!.id);
    return {
      passkeys: await listPasskeys(deps, request.user!.id),
      totp: on,
      recovery_codes_left: on ? await recoveryCodesLeft(deps, request.user!.id) : 0,
      totp_available: user ? await totpAvailable(deps, user) : false,
      has_password: Boolean(user?.password_hash),
    };
  });

  // Passkeys of the signed-in account.
  app.post(
    API.passkeyRegistrationOptions,
    {
      ...signedIn(app, { tags, response: { 200: PasskeyOptionsSchema, ...errorResponses } }),
      preHandler: signedInLimits(app, 'passkey-add', 60, 20),
    },
    async (request) => orFail('ERR_PASSKEY_FAILED', request.log, () => registrationOptions(deps, request.user!)),
  );
  app.post(
    API.passkeys,
    {
      ...signedIn(app, { tags, body: AddPasskeyRequestSchema, response: { 200: PasskeySchema, ...errorResponses } }),
      preHandler: signedInLimits(app, 'passkey-add', 60, 20),
    },
    async (request) => orFail('ERR_PASSKEY_FAILED', request.log, () => addPasskey(deps, request.user!, request.body)),
  );
  app.patch(
    API.passkey,
    signedIn(app, {
      tags,
      params: PasskeyIdParamsSchema,
      body: RenamePasskeyRequestSchema,
      response: { 200: PasskeySchema, 404: ErrorBodySchema, ...errorResponses },
    }),
    async (request) => renamePasskey(deps, request.user!, request.params.id, request.body.name),
  );
  app.delete(
    API.passkey,
    signedIn(app, {
      tags,
      params: PasskeyIdParamsSchema,
      response: { 200: OkSchema, 404: ErrorBodySchema, ...errorResponses },
    }),
    async (request) => removePasskey(deps, request.user!, request.params.id),
  );

  // Two-step verification of the signed-in account (each code check limited per user like a password check).
  app.post(
    API.totpSetup,
    {
      ...signedIn(app, { tags, response: { 200: TotpSetupResponseSchema, ...errorResponses } }),
      preHandler: signedInLimits(app, 'totp-setup', 60, 20),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => startEnrolment(deps, request.user!)),
  );
  app.post(
    API.totpEnable,
    {
      ...signedIn(app, {
        tags,
        body: TotpEnableRequestSchema,
        response: { 200: RecoveryCodesResponseSchema, ...errorResponses },
      }),
      preHandler: signedInLimits(app, 'totp-code', 30, 10),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => confirmEnrolment(deps, request.user!, request.body)),
  );
  app.post(
    API.totpDisable,
    {
      ...signedIn(app, { tags, body: TotpDisableRequestSchema, response: { 200: OkSchema, ...errorResponses } }),
      preHandler: signedInLimits(app, 'totp-code', 30, 10),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => disable(deps, request.user!, request.body)),
  );
  app.post(
    API.recoveryCodes,
    {
      ...signedIn(app, {
        tags,
        body: NewRecoveryCodesRequestSchema,
        response: { 200: RecoveryCodesResponseSchema, ...errorResponses },
      }),
      preHandler: signedInLimits(app, 'totp-code', 30, 10),
    },
    async (request) =>
      orFail('ERR_INTERNAL', request.log, () => replaceRecoveryCodes(deps, request.user!, request.body)),
  );

  // Sign-in: the code step after a password (per address and client like the e-mailed code checks).
  app.post(
    API.secondStep,
    {
      schema: {
        tags,
        body: SecondStepRequestSchema,
        response: { 200: SessionResponseSchema, ...captchaErrorResponses },
      },
      preHandler: addressLimits(app, 'second-step', 30, 10, 'failures', 'email', 'code', {
        alarm: passwordKnownAlarm(deps),
      }),
    },
    async (request) =>
      orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, async () =>
        finishWithSession(deps, await answerSecondStep(deps, request.body), {
          method: 'password',
          secondFactor: true,
          device: device(request.headers['user-agent']),
        }),
      ),
  );
  // Sign-in with a passkey: a challenge, then the signed answer.
  app.post(
    API.passkeyLoginOptions,
    {
      schema: { tags, response: { 200: PasskeyOptionsSchema, ...errorResponses } },
      preHandler: app.limit({ name: 'passkey-options-ip', max: 120, window: '10 minutes' }),
    },
    async (request) => orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, () => loginOptions(deps)),
  );
  app.post(
    API.passkeyLogin,
    {
      schema: { tags, body: PasskeyLoginRequestSchema, response: { 200: SessionResponseSchema, ...errorResponses } },
      preHandler: app.limit({ name: 'passkey-login-ip', max: 60, window: '10 minutes' }),
    },
    async (request) =>
      orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, async () =>
        finishWithSession(deps, await answerPasskeyLogin(deps, request.body), {
          method: 'passkey',
          device: device(request.headers['user-agent']),
        }),
      ),
  );
};

export default securityRoutes;
