import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, LoginRequestSchema, PasswordLoginResponseSchema } from '@suite/contract';
import type { AccountsDeps } from '../../deps.js';
import { addressLimits, captchaErrorResponses, orFail } from '../../http.js';
import { login } from './sign-in.js';
import { TRUSTED_BROWSER_COOKIE } from '../../identity/trusted-browser.js';

const tags = ['accounts'];

/** Password sign-in (anonymous; per address and client, captcha past the ceiling). */
const passwordRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.post(
    API.login,
    {
      schema: {
        tags,
        body: LoginRequestSchema,
        response: { 200: PasswordLoginResponseSchema, ...captchaErrorResponses },
      },
      preHandler: [...addressLimits(app, 'login', 30, 10, 'failures', 'login'), app.captcha('login')],
    },
    async (request) =>
      orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, () =>
        login(deps, {
          ...request.body,
          device: request.headers['user-agent'] ?? null,
          ip: request.ip,
          trustedBrowser: request.cookies[TRUSTED_BROWSER_COOKIE],
        }),
      ),
  );
};

export default passwordRoutes;
