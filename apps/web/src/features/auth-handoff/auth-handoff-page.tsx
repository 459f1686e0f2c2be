import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import type { SessionPayload, SessionResponse } from '@suite/contract/core';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useConfig } from '../../lib/config';
import { decodeToken, isExpired } from '../../lib/jwt';
import { safeRedirectTarget } from '../../lib/safe-redirect';
import { STORAGE_KEYS, readString, write } from '../../lib/storage';
import { currentUser, saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { Button } from '../../components/button';
import { endSession, exchangeHandoff, meWith } from './api/handoff';

type State =
  | { kind: 'checking' }
  | { kind: 'error' }
  | { kind: 'switch'; current: string; next: string; accept: () => void; decline: () => void }
  | { kind: 'confirm'; email: string; accept: () => void; decline: () => void };

/**
 * `/auth?token=…` (spec §2) and `/auth?handoff=…` (single sign-on): stores a valid session, sets the
 * acting profile (with the person's names) when none is stored, removes the token from the address and
 * returns to the previous page. A link that would put a signed-in person into another account asks
 * first (a crafted link must not switch accounts silently), and so does a session nobody in this browser
 * asked for: a `?token=` link, or a hand-off of a sign-in this browser did not start (the server says so):
 * "Continue as …?", so a third-party page cannot sign a visitor into the attacker's account. A
 * single-sign-on account that has not accepted the terms yet goes to the welcome step. The hand-off of a
 * fresh proof at the provider (SAML) marks this browser's session proved and returns.
 */
export default function AuthHandoffPage() {
  const { t } = useTranslation('pages');
  // Read once: the token leaves the address at once, and that change must not run the exchange again.
  const [params] = useState(() => new URLSearchParams(window.location.search));
  const navigate = useNavigate();
  const { mainAppUrl } = useConfig();
  const [state, setState] = useState<State>({ kind: 'checking' });
  useDocumentTitle(state.kind === 'error' ? t('auth.errorTitle') : t('auth.checking'));

  useEffect(() => {
    const token = params.get('token') ?? '';
    const handoff = params.get('handoff') ?? '';
    // The token leaves the address bar (and history) before anything else happens.
    const rest = new URLSearchParams(params);
    rest.delete('token');
    rest.delete('handoff');
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest.size ? `?${rest}` : ''}`);
    let live = true;

    /** "The previous page": an explicit same-origin ?redirect=, else our referrer, else the main app. */
    function goBack() {
      const allowed = [new URL(mainAppUrl, window.location.origin).origin];
      const back = safeRedirectTarget(rest.get('redirect'), allowed) ?? safeRedirectTarget(document.referrer, allowed);
      if (back && !back.startsWith('/auth') && !/^https?:\/\/[^/]+\/auth(\?|$)/.test(back)) {
        // A navigation that throws (a target the router refuses) must not leave the page on "checking…".
        try {
          if (back.startsWith('/')) void navigate(back, { replace: true });
          else window.location.replace(back);
          return;
        } catch {
          // fall through to the safe default
        }
      }
      window.location.replace(mainAppUrl);
    }

    /**
     * Stores the session with its profiles (the names the home, the pre-join and the room greet with; from
     * /me for a bare token). The acting profile stays when the same person was signed in already.
     */
    async function adopt(session: SessionResponse, payload: SessionPayload) {
      const me = await meWith(session.token).catch(() => null);
      const profiles = session.profiles.length ? session.profiles : (me?.profiles ?? []);
      // Spec §2: an acting profile already stored stays, unless it was another person's (a switch).
      const before = currentUser();
      const previousActing = !before || before._id === payload.user._id ? readString(STORAGE_KEYS.actingProfile) : null;
      if (profiles.length) {
        saveSession({ token: session.token, profiles });
      } else {
        write(STORAGE_KEYS.authorization, session.token);
        write(STORAGE_KEYS.user, payload.user);
        write(STORAGE_KEYS.preferences, payload.user.preferences ?? {});
        if (payload.user.profile_id) {
          write(STORAGE_KEYS.actingProfile, { _id: payload.user.profile_id, info: { email: payload.user.email } });
        }
      }
      if (previousActing) write(STORAGE_KEYS.actingProfile, JSON.parse(previousActing) as unknown);
      if (me && !me.registered) {
        void navigate(`${userPath('welcome')}?sso=1`, { replace: true });
        return;
      }
      goBack();
    }

    /** Asks before a link replaces the signed-in person by someone else. */
    function confirmSwitch(next: SessionPayload['user'], accept: () => void, decline: () => void) {
      const signedIn = currentUser();
      if (!signedIn || signedIn._id === next._id) return accept();
      setState({ kind: 'switch', current: signedIn.email, next: next.email, accept, decline });
    }

    /** The session of the link: asks before a switch, then stores it. */
    function proceed(session: SessionResponse | null) {
      const payload = session ? decodeToken<SessionPayload>(session.token) : null;
      if (!live) return;
      if (!session || !payload?.user?._id || isExpired(payload)) {
        setState({ kind: 'error' });
        return;
      }
      const ready = session;
      confirmSwitch(
        payload.user,
        () => {
          setState({ kind: 'checking' });
          void adopt(ready, payload);
        },
        () => {
          // Declined: the session this link made (a hand-off) ends; the person stays who they were.
          if (handoff) void endSession(ready.token);
          goBack();
        },
      );
    }

    /** "Continue as …?" for a session that this browser did not ask for; declining stores nothing. */
    function confirmUnasked(email: string, accept: () => void) {
      setState({
        kind: 'confirm',
        email,
        accept: () => {
          setState({ kind: 'checking' });
          accept();
        },
        decline: () => void navigate(userPath('login'), { replace: true }),
      });
    }

    void (async () => {
      if (handoff) {
        const answer = await exchangeHandoff(handoff).catch(() => null);
        if (!live) return;
        // A fresh proof at the provider: the session this browser holds is proved now; nothing to store.
        if (answer && 'proved' in answer) return goBack();
        if (answer && 'confirm_as' in answer) {
          confirmUnasked(answer.confirm_as, () => {
            void exchangeHandoff(handoff, true)
              .catch(() => null)
              .then((confirmed) => proceed(confirmed && 'token' in confirmed ? confirmed : null));
          });
          return;
        }
        proceed(answer);
        return;
      }
      if (!token) return proceed(null);
      const payload = decodeToken<SessionPayload>(token);
      const session = { token, profiles: [] };
      // A token link is never bound to this browser: unless its person is the one signed in here (or a
      // switch is asked about anyway), ask first.
      const signedIn = currentUser();
      if (!payload?.user?._id || isExpired(payload) || signedIn) return proceed(session);
      confirmUnasked(payload.user.email, () => proceed(session));
    })();
    return () => {
      live = false;
    };
  }, [params, navigate, mainAppUrl]);

  if (state.kind === 'confirm') {
    return (
      <div
        className="card simple-page stack"
        role="alertdialog"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-text"
      >
        <h1 id="confirm-title">{t('auth.confirmTitle', { email: state.email })}</h1>
        <p id="confirm-text">{t('auth.confirmText', { email: state.email })}</p>
        <Button block onClick={state.decline} autoFocus>
          {t('auth.confirmCancel')}
        </Button>
        <Button block variant="secondary" onClick={state.accept}>
          {t('auth.confirmContinue', { email: state.email })}
        </Button>
      </div>
    );
  }
  if (state.kind === 'switch') {
    return (
      <div
        className="card simple-page stack"
        role="alertdialog"
        aria-labelledby="switch-title"
        aria-describedby="switch-text"
      >
        <h1 id="switch-title">{t('auth.switchTitle')}</h1>
        <p id="switch-text">{t('auth.switchText', { current: state.current, next: state.next })}</p>
        <Button block onClick={state.decline} autoFocus>
          {t('auth.switchStay', { current: state.current })}
        </Button>
        <Button block variant="secondary" onClick={state.accept}>
          {t('auth.switchContinue', { next: state.next })}
        </Button>
      </div>
    );
  }
  return (
    <div className="card simple-page stack">
      {state.kind === 'checking' ? (
        <div role="status" aria-live="polite" className="stack">
          <h1>{t('auth.checking')}</h1>
          <p className="muted">{t('auth.checkingText')}</p>
        </div>
      ) : (
        <>
          <h1>{t('auth.errorTitle')}</h1>
          {/* The heading says what happened; the text says why links end, not the heading again. */}
          <p>{t('auth.errorText')}</p>
          <Link className="btn btn--primary btn--block" to={userPath('login')}>
            {t('auth.toLogin')}
          </Link>
        </>
      )}
    </div>
  );
}
