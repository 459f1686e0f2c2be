import { useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/i18n-react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { clearSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { revertFactorChange } from './api/revert';
import '../../components/destructive.css';

/** The token of the link, read once; it leaves the address bar (and history) before the first paint. */
function takeToken(): string {
  if (typeof window === 'undefined') return '';
  const token = window.location.hash.replace(/^#/, '');
  if (token) window.history.replaceState(window.history.state, '', window.location.pathname);
  return token;
}

/**
 * `/security/not-me#<token>`: the "this wasn't me" link of a factor-change mail. One button undoes
 * the change (removes the new passkey or authenticator app, clears a password set in it) and signs
 * the account out everywhere; then a new password is the next step. The token rides in the fragment, which no server sees.
 */
export default function NotMePage() {
  const { t } = useTranslation('notMe');
  const [token] = useState(takeToken);
  const [done, setDone] = useState(false);
  const [passwordCleared, setPasswordCleared] = useState(false);
  useDocumentTitle(done ? t('doneTitle') : t('title'));
  const submit = useFormSubmit({
    movesOn: false,
    send: async () => {
      setPasswordCleared(await revertAndSignOut(token));
      setDone(true);
    },
  });

  if (done) {
    return (
      <div className="card simple-page stack">
        <h1>{t('doneTitle')}</h1>
        <Alert variant="success">{t('done')}</Alert>
        {passwordCleared ? <p>{t('passwordCleared')}</p> : null}
        <Link className="btn btn--primary btn--block" to={userPath('recovery-password')}>
          {t('newPassword')}
        </Link>
      </div>
    );
  }
  return (
    <div className="card simple-page stack">
      <h1>{t('title')}</h1>
      <p>{t('text')}</p>
      {!token ? <Alert>{t('noToken')}</Alert> : null}
      {submit.error !== null && <Alert>{submit.error}</Alert>}
      <Button variant="danger" block onClick={() => void submit.run(null)} loading={submit.busy} disabled={!token}>
        {t('undo')}
      </Button>
      <Link className="btn btn--link" to={userPath('login')}>
        {t('toLogin')}
      </Link>
    </div>
  );
}

/** Returns whether the password was cleared (a password change was among what was undone). */
async function revertAndSignOut(token: string): Promise<boolean> {
  const { password_cleared } = await revertFactorChange(token);
  // This browser's session ended with every other one: it is forgotten here too.
  clearSession();
  return password_cleared;
}
