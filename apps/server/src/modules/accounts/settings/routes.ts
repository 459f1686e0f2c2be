import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  FactorRevertRequestSchema,
  FactorRevertResponseSchema,
  LoginResponseSchema,
  OkSchema,
  ReauthRequestSchema,
  SecurityStateSchema,
  UpdatePasswordRequestSchema,
  UserIdParamsSchema,
} from '@suite/contract';
import type { AccountsDeps } from '../deps.js';
import { secondFactorAlarm } from '../identity/alarms.js';
import { errorResponses, orFail, recoverySecondFactorLimits, signedInLimits } from '../http.js';
import { reauthenticate, securityState } from './proof.js';
import { revertChange, updatePassword } from './service.js';

const tags = ['accounts'];

/**
 * The signed-in account's settings: a new password, the Security panel's state, a fresh proof before
 * a factor change, and the "this wasn't me" link of a factor-change mail.
 */
const settingsRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.put(
    API.updateUser,
    {
      // The recovery token is accepted here alone; the current password is checked per user (10 / 10 min).
      config: { session: 'password' },
      schema: {
        tags,
        params: UserIdParamsSchema,
        body: UpdatePasswordRequestSchema,
        response: { 200: LoginResponseSchema, ...errorResponses },
      },
      preHandler: [
        ...signedInLimits(app, 'password', 20, 10),
        recoverySecondFactorLimits(app, secondFactorAlarm(deps, 'mailbox-known')),
      ],
    },
    async (request) =>
      orFail('ERR_COULD_NOT_UPDATE_PASSWORD', request.log, () =>
        updatePassword(deps, request.user!, request.params.id, request.body),
      ),
  );

  app.get(
    API.security,
    { config: { session: 'full' }, schema: { tags, response: { 200: SecurityStateSchema } } },
    async (request) => orFail('ERR_INTERNAL', request.log, () => securityState(deps, request.user!)),
  );

  // Each answer is a password or code check: limited per user like the password change.
  app.post(
    API.reauth,
    {
      config: { session: 'full' },
      schema: { tags, body: ReauthRequestSchema, response: { 200: OkSchema, ...errorResponses } },
      preHandler: signedInLimits(app, 'reauth', 30, 10),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => reauthenticate(deps, request.user!, request.body)),
  );

  // Anonymous: the mailbox holder's token is the whole proof (single-use, stored hashed).
  app.post(
    API.factorRevert,
    {
      schema: {
        tags,
        body: FactorRevertRequestSchema,
        response: { 200: FactorRevertResponseSchema, ...errorResponses },
      },
      preHandler: app.limit({ name: 'factor-revert-ip', max: 30, window: '10 minutes' }),
    },
    async (request) => orFail('ERR_INTERNAL', request.log, () => revertChange(deps, request.body.token)),
  );
};

export default settingsRoutes;
