import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from '../../../lib/navigation';
import { useTranslation } from '../../../lib/i18n-react';
import { LANGUAGE_TAGS, type ActiveSession, type Language } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { clearSession } from '../../../lib/session';
import { userPath } from '../../../lib/paths';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { logoutAll } from '../api/sessions';
import { useNow, useSessions } from '../hooks/use-sessions';
import { SessionItem, sessionEnded } from './session-item';
import '../../../components/item-list.css';
import './sessions.css';
import '../../../components/destructive.css';

/**
 * Signed-in home: the devices signed in to this account (GET /v2/user/sessions), each other one can be
 * signed out (DELETE), or all at once (POST /auth/logout-all, this device included: it goes to login, or
 * to its provider's logout for a single sign-on session).
 * An answer that refuses this device's own session (ended from another device) also leads to login.
 */
export function SessionsPanel() {
  const { t, i18n } = useTranslation('sessions');
  const navigate = useNavigate();
  const { confirm } = useDialog();
  const { state, reload, removed } = useSessions();
  const now = useNow();
  const [announcement, setAnnouncement] = useState('');
  const titleRef = useRef<HTMLHeadingElement>(null);
  const languageTag = LANGUAGE_TAGS[i18n.language as Language] ?? i18n.language;

  const signedOutHere = useCallback(() => {
    clearSession();
    navigate(userPath('login'), { replace: true });
  }, [navigate]);
  useEffect(() => {
    if (state.status === 'error' && sessionEnded(state.error)) signedOutHere();
  }, [state, signedOutHere]);

  const ended = useCallback(
    (session: ActiveSession, label: string) => {
      removed(session._id);
      setAnnouncement(t('signedOut', { device: label }));
      // The focused button went with its row: keep the keyboard user in the panel.
      titleRef.current?.focus();
    },
    [removed, t],
  );

  const all = useFormSubmit({
    send: async () => {
      const answer = await logoutAll();
      // A session from the organization's provider: its session on this device ends too.
      if (answer.logout_url) {
        clearSession();
        window.location.assign(answer.logout_url);
      } else signedOutHere();
    },
    failure: (failure) => {
      if (!sessionEnded(failure)) return { form: failure };
      signedOutHere();
      return null;
    },
  });

  async function signOutEverywhere() {
    const yes = await confirm({
      title: t('allTitle'),
      text: t('allText'),
      primaryLabel: t('allConfirm'),
      secondaryLabel: t('cancel'),
      variant: 'danger',
    });
    if (!yes) return;
    setAnnouncement('');
    await all.run(null);
  }

  const others = state.status === 'ready' ? state.sessions.filter((s) => !s.current).length : 0;
  return (
    <section className="card stack sessions" aria-labelledby="sessions-title">
      <div>
        <h2 id="sessions-title" ref={titleRef} tabIndex={-1}>
          {t('title')}
        </h2>
        <p className="muted sessions__intro">{t('intro')}</p>
      </div>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && !sessionEnded(state.error) && (
        <LoadError error={state.error} retryLabel={t('retry')} onRetry={reload} />
      )}
      {state.status === 'ready' && (
        <>
          <ul className="item-list" aria-labelledby="sessions-title">
            {state.sessions.map((session) => (
              <SessionItem
                key={session._id}
                session={session}
                now={now}
                languageTag={languageTag}
                onEnded={ended}
                onSignedOutHere={signedOutHere}
              />
            ))}
          </ul>
          {others === 0 && <p className="muted sessions__only">{t('onlyThis')}</p>}
        </>
      )}
      <p role="status" aria-live="polite" className="sessions__status">
        {announcement}
      </p>
      {all.error !== null && <Alert>{all.error}</Alert>}
      {/* Alone, "every device" is only this one: the plain Sign out of the account menu does that. */}
      {state.status === 'ready' && others > 0 && (
        <div className="sessions__footer">
          <Button variant="secondary" onClick={() => void signOutEverywhere()} loading={all.busy}>
            {t('all')}
          </Button>
        </div>
      )}
    </section>
  );
}
