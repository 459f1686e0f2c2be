import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  AddPasskeyRequestSchema,
  ErrorBodySchema,
  OkSchema,
  PasskeyIdParamsSchema,
  PasskeyLoginRequestSchema,
  PasskeyOptionsSchema,
  PasskeySchema,
  RenamePasskeyRequestSchema,
  SessionResponseSchema,
} from '@suite/contract';
import type { AccountsDeps } from '../../deps.js';
import { errorResponses, orFail, signedInLimits } from '../../http.js';
import { finishWithSession } from '../../login/finish.js';
import { passkeyMethod } from './method.js';
import {
  addPasskey,
  answerPasskeyLogin,
  loginOptions,
  registrationOptions,
  removePasskey,
  renamePasskey,
} from './service.js';

const tags = ['accounts'];

/** Passkeys: those of the signed-in account (Security panel), and the passkey sign-in (anonymous). */
const webauthnRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.post(
    API.passkeyRegistrationOptions,
    {
      config: { session: 'full' },
      schema: { tags, response: { 200: PasskeyOptionsSchema, ...errorResponses } },
      preHandler: signedInLimits(app, 'passkey-add', 60, 20),
    },
    async (request) => orFail('ERR_PASSKEY_FAILED', request.log, () => registrationOptions(deps, request.user!)),
  );
  app.post(
    API.passkeys,
    {
      config: { session: 'full' },
      schema: { tags, body: AddPasskeyRequestSchema, response: { 200: PasskeySchema, ...errorResponses } },
      preHandler: signedInLimits(app, 'passkey-add', 60, 20),
    },
    async (request) => orFail('ERR_PASSKEY_FAILED', request.log, () => addPasskey(deps, request.user!, request.body)),
  );
  app.patch(
    API.passkey,
    {
      config: { session: 'full' },
      schema: {
        tags,
        params: PasskeyIdParamsSchema,
        body: RenamePasskeyRequestSchema,
        response: { 200: PasskeySchema, 404: ErrorBodySchema, ...errorResponses },
      },
    },
    async (request) => renamePasskey(deps, request.user!, request.params.id, request.body.name),
  );
  app.delete(
    API.passkey,
    {
      config: { session: 'full' },
      schema: {
        tags,
        params: PasskeyIdParamsSchema,
        response: { 200: OkSchema, 404: ErrorBodySchema, ...errorResponses },
      },
    },
    async (request) => removePasskey(deps, request.user!, request.params.id),
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
          proved: [passkeyMethod],
          device: request.headers['user-agent'] ?? null,
          ip: request.ip,
        }),
      ),
  );
};

export default webauthnRoutes;
