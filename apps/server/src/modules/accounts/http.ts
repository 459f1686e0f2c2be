import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorBodySchema, type CaptchaAction, type Language } from '@suite/contract';
import { isDatabaseUnavailable } from '../../db/outage.js';
import { AppError, unavailable } from '../../errors.js';
import type { ThrottleAlarm } from '../../plugins/throttle.js';
import { pickLanguage } from './language.js';

/** What the accounts routes share: error responses, rate-limit sets, language and failure mapping. */

export const errorResponses = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
  500: ErrorBodySchema,
};
/** Routes behind a captcha can also answer 503 (verify service unreachable). */
export const captchaErrorResponses = { ...errorResponses, 503: ErrorBodySchema };

const WINDOW = '10 minutes';

/**
 * Anonymous calls that take an address: per IP (failures for login and code checks, every attempt for
 * code sends), and per address through app.throttle (plugins/throttle.ts): `perAddress` per (address,
 * client IP), 429 for that client only; over all clients but trusted devices a ceiling 10× (failures)
 * or 4× (code sends) higher, past which a captcha is asked where one is configured, and otherwise one
 * request at a time is let through, briefly delayed, and the others are refused. `secondFactor`: the
 * ceiling holds for trusted devices too, and the alarm counts the wrong codes.
 */
export const addressLimits = (
  app: FastifyInstance,
  name: string,
  perIp: number,
  perAddress: number,
  counts: 'failures' | 'all',
  field = 'email',
  stepUp?: CaptchaAction,
  secondFactor?: { alarm: ThrottleAlarm },
) => [
  app.limit({ name: `${name}-ip`, max: perIp, window: WINDOW, counts }),
  app.throttle({
    name,
    field,
    perClient: perAddress,
    ceiling: perAddress * (counts === 'failures' ? 10 : 4),
    window: WINDOW,
    counts,
    ...(stepUp ? { stepUp } : {}),
    // A second factor is guessed by someone who has the password: no cookie lifts its ceiling.
    ...(secondFactor ? { trustDevices: false, alarm: secondFactor.alarm } : {}),
  }),
];

/** The sign-in's second step: wrong codes per (address, client) in a window (addressLimits' perAddress). */
export const SECOND_STEP_PER_ADDRESS = 10;

/**
 * The second factor guessed on the recovery path (a new password with the recovery token and a code):
 * the same per-address budget, ceiling and alarm as the sign-in's second step (addressLimits
 * 'second-step'), keyed on the token's account, so the mailbox does not buy a second budget of guesses.
 */
export const recoverySecondFactorLimits = (app: FastifyInstance, alarm: ThrottleAlarm) =>
  app.throttle({
    name: 'second-step',
    field: 'email',
    addressOf: (request) => (request.user?.kind === 'recovery' ? request.user.email : undefined),
    perClient: SECOND_STEP_PER_ADDRESS,
    ceiling: SECOND_STEP_PER_ADDRESS * 10,
    window: WINDOW,
    counts: 'failures',
    stepUp: 'code',
    trustDevices: false,
    alarm,
  });

/**
 * Signed-in calls that hash a password or send mail: per IP and per user (the route declares its
 * `config.session`, checked before these).
 */
export const signedInLimits = (app: FastifyInstance, name: string, perIp: number, perUser: number, window = WINDOW) => [
  app.limit({ name: `${name}-ip`, max: perIp, window }),
  app.limit({ name: `${name}-user`, max: perUser, window, by: 'user' }),
];

export const languageOf = (request: FastifyRequest, body?: { language?: Language | undefined }): Language =>
  pickLanguage(body?.language, request.headers['accept-language']);

/** The request that asks for a code, as plain values for the services (codes/flow.ts CodeAsker). */
export const askerOf = (request: FastifyRequest) => ({
  at: Date.now(),
  userAgent: (request.headers['user-agent'] ?? '').slice(0, 512),
});

/**
 * Runs a service step; an unexpected failure becomes the call's catalogue error (logged, no details
 * out). An unreachable database is not such a failure: it answers 503 with Retry-After.
 */
export async function orFail<T>(
  code: ConstructorParameters<typeof AppError>[0],
  log: { error(obj: object, msg: string): void },
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isDatabaseUnavailable(error)) {
      log.error({ err: error }, 'database unavailable');
      throw unavailable();
    }
    log.error({ err: error }, `failed: ${code}`);
    throw new AppError(code);
  }
}
