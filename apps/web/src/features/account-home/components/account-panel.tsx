import { useNavigate } from '../../../lib/navigation';
import { useTranslation } from '../../../lib/i18n-react';
import { API, type LogoutResponse } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';
import { actingProfile, clearSession, currentUser } from '../../../lib/session';
import { userPath } from '../../../lib/paths';
import { Button } from '../../../components/button';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { WithAddress } from '../../../components/address';

/** Who is signed in, the acting profile, and sign out. */
export function AccountPanel() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const user = currentUser();
  const profile = actingProfile();
  const name = [profile?.info.first_name, profile?.info.last_name].filter(Boolean).join(' ');

  const signOut = useFormSubmit({
    send: async () => {
      // Ends the session on the server too; signing out locally must work even when the server is unreachable.
      const answer = await apiRequest<LogoutResponse>({ method: 'POST', path: API.logout, auth: true }).catch(
        () => undefined,
      );
      clearSession();
      // A session from the organization's provider: its session ends too (it sends the browser back to sign-in).
      if (answer?.logout_url) window.location.assign(answer.logout_url);
      else navigate(userPath('login'), { replace: true });
    },
  });

  return (
    <section className="card" aria-labelledby="account-title" style={{ width: '100%' }}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <div>
          <h2 id="account-title">{t('greeting', { name: name || user?.email || '' })}</h2>
          <p className="muted" style={{ margin: 0 }}>
            <WithAddress text={t('signedInAs', { email: user?.email ?? '' })} email={user?.email ?? ''} />
            {profile?.type ? ` · ${t(`profile.${profile.type}`)}` : ''}
          </p>
        </div>
        <Button variant="secondary" onClick={() => void signOut.run(null)} loading={signOut.busy}>
          {t('signOut')}
        </Button>
      </div>
    </section>
  );
}
