import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { CaptchaAction } from '@suite/contract';
import type { AppConfig } from '../config.js';
import { AppError, unavailable } from '../errors.js';

/** How long a request waits for the verify service before answering 503 (fail closed). */
export const CAPTCHA_VERIFY_TIMEOUT_MS = 3000;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A preHandler that requires a reCAPTCHA v3 token (body field `captcha_token`) issued for one of
     * `actions`; a no-op when CAPTCHA_SITE_KEY is empty. Put it before anything that writes or hashes.
     */
    captcha: (...actions: [CaptchaAction, ...CaptchaAction[]]) => preHandlerAsyncHookHandler;
    /** true when CAPTCHA_SITE_KEY is set: the throttle's step-up (plugins/throttle.ts) asks for a captcha then. */
    captchaEnabled: boolean;
    /** The check behind `captcha`, for a request in hand (ERR_CAPTCHA_FAILED, or 503 when unreachable). */
    checkCaptcha: (request: FastifyRequest, actions: readonly CaptchaAction[]) => Promise<void>;
  }
}

type Settings = NonNullable<AppConfig['captcha']>;

/** The parts of Google's siteverify answer we read. */
interface VerifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
  hostname?: unknown;
  'error-codes'?: unknown;
}

const failed = () => new AppError('ERR_CAPTCHA_FAILED');

/**
 * Asks the verify service about `token`. Throws ERR_CAPTCHA_FAILED (400) when the answer is not a
 * success for one of `actions`, solved on PUBLIC_URL's host name, with at least the minimum score, ERR_SERVICE_UNAVAILABLE (503) when the
 * service cannot be reached, times out or answers something that is not a verdict. Never logs the
 * secret or the token.
 */
async function verifyCaptcha(
  settings: Settings,
  token: string,
  remoteIp: string,
  actions: readonly CaptchaAction[],
  log: FastifyBaseLogger,
): Promise<void> {
  let answer: VerifyAnswer;
  try {
    const res = await fetch(settings.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: settings.secret, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(CAPTCHA_VERIFY_TIMEOUT_MS),
      redirect: 'error',
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`captcha verify service answered HTTP ${res.status}`);
    }
    answer = (await res.json()) as VerifyAnswer;
    if (!answer || typeof answer !== 'object') throw new Error('captcha verify service answered no object');
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'unknown';
    const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    log.error(
      { reason, code, name: err instanceof Error ? err.name : undefined },
      'captcha verify service unavailable',
    );
    throw unavailable();
  }

  const ok =
    answer.success === true &&
    typeof answer.action === 'string' &&
    (actions as readonly string[]).includes(answer.action) &&
    typeof answer.hostname === 'string' &&
    answer.hostname.toLowerCase() === settings.hostname.toLowerCase() &&
    typeof answer.score === 'number' &&
    answer.score >= settings.minScore;
  if (!ok) {
    const errorCodes = Array.isArray(answer['error-codes']) ? answer['error-codes'].map(String) : [];
    // A secret the service rejects is our configuration, not the visitor: worth an operator's attention.
    const level = errorCodes.some((c) => c.includes('secret')) ? 'error' : 'info';
    log[level](
      {
        success: answer.success === true,
        action: typeof answer.action === 'string' ? answer.action.slice(0, 40) : undefined,
        expected: actions,
        hostname: typeof answer.hostname === 'string' ? answer.hostname.slice(0, 100) : undefined,
        score: typeof answer.score === 'number' ? answer.score : undefined,
        errorCodes,
      },
      'captcha check failed',
    );
    throw failed();
  }
}

async function captcha(app: FastifyInstance, opts: { config: AppConfig }) {
  const settings = opts.config.captcha;
  const check = async (request: FastifyRequest, actions: readonly CaptchaAction[]) => {
    if (!settings) return;
    const token = (request.body as { captcha_token?: unknown } | undefined)?.captcha_token;
    if (typeof token !== 'string' || !token) {
      request.log.info({ expected: actions }, 'captcha check failed: no token');
      throw failed();
    }
    await verifyCaptcha(settings, token, request.ip, actions, request.log);
  };
  app.decorate('captchaEnabled', Boolean(settings));
  app.decorate('checkCaptcha', check);
  app.decorate('captcha', (...actions: [CaptchaAction, ...CaptchaAction[]]) => {
    const handler: preHandlerAsyncHookHandler = (request) => check(request, actions);
    return handler;
  });
}

export default fp(captcha, { name: 'captcha' });
