import { useEffect, useState } from 'react';
import { PROGRESS_ACTION_AT, PROGRESS_DONE, PROGRESS_INTERVAL_MS, PROGRESS_STEP } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { saveSession } from '../../lib/session';
import { captchaToken } from '../../lib/captcha';
import { flowEmail } from '../../lib/flow-email';
import { acceptInvite, resumeSignup } from './api/accept-invite';
import type { InviteTokenCheck } from './invite-token';

export type InviteState =
  | { status: 'validating'; progress: number }
  /** `session`: the invite created a confirmed account and signed it in (next: the welcome step). */
  | { status: 'success'; progress: number; session: boolean }
  | { status: 'accepted' }
  /** Accepted earlier, but no password was ever set: a new code was mailed; the code screen comes next. */
  | { status: 'resume' }
  | { status: 'expired' }
  | { status: 'error'; error: unknown };

/** After a 409: continue to the code screen when the account still needs its password, else 'accepted'. */
async function resume(email: string, captchaSiteKey: string): Promise<InviteState> {
  try {
    await resumeSignup(email, await captchaToken(captchaSiteKey, 'signup'));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'ERR_USER_NOT_CONFIRMED_SIGNUP') {
      flowEmail.set(email);
      return { status: 'resume' };
    }
  }
  return { status: 'accepted' };
}

/** While the call is out, the bar may not reach the end. */
const HOLD_AT = PROGRESS_DONE - PROGRESS_STEP;

/**
 * Spec §4: progress grows 10 every 500 ms; at 30 the sign-up with the invite is sent; at 100 the
 * success shows. 409 → already accepted; an expired invite → expired; anything else → error.
 */
export function useInviteAcceptance(check: InviteTokenCheck, token: string, captchaSiteKey = ''): InviteState {
  const [state, setState] = useState<InviteState>(() =>
    check.kind === 'ok'
      ? { status: 'validating', progress: 0 }
      : check.kind === 'expired'
        ? { status: 'expired' }
        : { status: 'error', error: null },
  );
  const email = check.kind === 'ok' ? check.email : '';

  useEffect(() => {
    if (!email) return;
    let progress = 0;
    let outcome: { session: boolean } | null = null;
    let sent = false;
    let stopped = false;
    const stop = (next: InviteState) => {
      stopped = true;
      window.clearInterval(timer);
      setState(next);
    };
    const timer = window.setInterval(() => {
      if (stopped) return;
      if (outcome || progress < HOLD_AT) progress = Math.min(PROGRESS_DONE, progress + PROGRESS_STEP);
      if (progress >= PROGRESS_ACTION_AT && !sent) {
        sent = true;
        acceptInvite(email, token).then(
          (answer) => {
            const session = Boolean(
              answer.token && answer.profiles && saveSession({ token: answer.token, profiles: answer.profiles }),
            );
            outcome = { session };
          },
          (error: unknown) => {
            if (stopped) return;
            if (error instanceof ApiError && error.status === 409) {
              stopped = true;
              window.clearInterval(timer);
              void resume(email, captchaSiteKey).then((next) => setState(next));
            } else if (error instanceof ApiError && error.code === 'ERR_INVITE_EXPIRED') stop({ status: 'expired' });
            else stop({ status: 'error', error });
          },
        );
      }
      if (outcome && progress >= PROGRESS_DONE) stop({ status: 'success', progress, session: outcome.session });
      else setState({ status: 'validating', progress });
    }, PROGRESS_INTERVAL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [email, token, captchaSiteKey]);

  return state;
}
