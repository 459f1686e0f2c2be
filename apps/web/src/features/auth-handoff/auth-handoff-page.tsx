import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { useDocumentTitle } from '../../lib/use-document-title';
import type { SessionPayload } from '@suite/contract/core';
import { useConfig } from '../../lib/config';
import { decodeToken, isExpired } from '../../lib/jwt';
import { safeRedirectTarget } from '../../lib/safe-redirect';
import { STORAGE_KEYS, readString, write } from '../../lib/storage';
import { userPath } from '../../lib/paths';
import { Alert } from '../../components/alert';

type State = 'checking' | 'error';

/**
 * `/auth?token=…`: stores a valid, unexpired token, sets the acting profile from the token's profile id
 * when none is stored, removes the token from the address and returns to the previous page (spec §2).
 */
export default function AuthHandoffPage() {
  const { t } = useTranslation('pages');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { mainAppUrl } = useConfig();
  const [state, setState] = useState<State>('checking');
  useDocumentTitle(state === 'checking' ? t('auth.checking') : t('auth.errorTitle'));

  useEffect(() => {
    const token = params.get('token') ?? '';
    // The token leaves the address bar (and history) before anything else happens.
    const rest = new URLSearchParams(params);
    rest.delete('token');
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest.size ? `?${rest}` : ''}`);

    const payload = decodeToken<Partial<SessionPayload>>(token);
    if (!token || !payload?.user?._id || isExpired(payload)) {
      setState('error');
      return;
    }
    write(STORAGE_KEYS.authorization, token);
    write(STORAGE_KEYS.user, payload.user);
    write(STORAGE_KEYS.preferences, payload.user.preferences ?? {});
    if (!readString(STORAGE_KEYS.actingProfile) && payload.user.profile_id) {
      write(STORAGE_KEYS.actingProfile, { _id: payload.user.profile_id, info: { email: payload.user.email } });
    }
    // "The previous page": an explicit same-origin ?redirect=, else the referring page when it is ours
    // or the main app's. A foreign referrer (the identity provider that issued the token) is never
    // gone back to: that would loop; the main app is the safe default.
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
  }, [params, navigate, mainAppUrl]);

  return (
    <div className="card simple-page stack">
      {state === 'checking' ? (
        <div role="status" aria-live="polite" className="stack">
          <h1>{t('auth.checking')}</h1>
          <p className="muted">{t('auth.checkingText')}</p>
        </div>
      ) : (
        <>
          <h1>{t('auth.errorTitle')}</h1>
          <Alert>{t('auth.errorText')}</Alert>
          <Link to={userPath('login')}>{t('auth.toLogin')}</Link>
        </>
      )}
    </div>
  );
}
