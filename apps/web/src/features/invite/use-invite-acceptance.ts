import { useEffect, useState } from 'react';
import { PROGRESS_DONE, PROGRESS_INTERVAL_MS, PROGRESS_SHOWN_AFTER_MS, PROGRESS_STEP } from '@suite/contract/core';
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
 * Spec §4's states (validating, success, already accepted, expired, error). The sign-up with the invite
 * leaves at once and its answer is shown as soon as it is there: the bar is for a wait, so it appears
 * only when the server takes longer than PROGRESS_SHOWN_AFTER_MS (progress 0 = no bar), then grows a
 * step every PROGRESS_INTERVAL_MS, held short of the end until the answer. 409 → already accepted; an
 * expired invite → expired; anything else → error.
 */
export function useInviteAcceptance(
  check: InviteTokenCheck,
  token: string,
  captchaSiteKey = '',
  /** False until the page may accept (its look-up of who invites has answered). */
  ready = true,
): InviteState {
  const [state, setState] = useState<InviteState>(() =>
    check.kind === 'ok'
      ? { status: 'validating', progress: 0 }
      : check.kind === 'expired'
        ? { status: 'expired' }
        : { status: 'error', error: null },
  );
  const email = check.kind === 'ok' ? check.email : '';

  useEffect(() => {
    if (!email || !ready) return;
    let progress = 0;
    let stopped = false;
    let timer: number | undefined;
    const stopTimers = () => {
      stopped = true;
      window.clearTimeout(shown);
      window.clearInterval(timer);
    };
    const stop = (next: InviteState) => {
      stopTimers();
      setState(next);
    };
    const step = () => {
      if (stopped) return;
      progress = Math.min(HOLD_AT, progress + PROGRESS_STEP);
      setState({ status: 'validating', progress });
    };
    const shown = window.setTimeout(() => {
      step();
      timer = window.setInterval(step, PROGRESS_INTERVAL_MS);
    }, PROGRESS_SHOWN_AFTER_MS);
    acceptInvite(email, token).then(
      (answer) => {
        if (stopped) return;
        const session = Boolean(
          answer.token && answer.profiles && saveSession({ token: answer.token, profiles: answer.profiles }),
        );
        stop({ status: 'success', progress: PROGRESS_DONE, session });
      },
      (error: unknown) => {
        if (stopped) return;
        if (error instanceof ApiError && error.status === 409) {
          stopTimers();
          void resume(email, captchaSiteKey).then((next) => setState(next));
        } else if (error instanceof ApiError && error.code === 'ERR_INVITE_EXPIRED') stop({ status: 'expired' });
        else stop({ status: 'error', error });
      },
    );
    return stopTimers;
  }, [email, token, captchaSiteKey, ready]);

  return state;
}
