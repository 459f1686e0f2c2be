import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { useGoToMainApp } from '../../lib/main-app';
import { passwordLengthOk } from '../../lib/password-rules';
import { currentUser, saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useErrorMessage } from '../../lib/use-error-message';
import { useDocumentTitle } from '../../lib/use-document-title';
import { PasswordField } from '../../components/password-field';
import { Button } from '../../components/button';
import { Alert } from '../../components/alert';
import { updatePassword } from './api/update-password';
import '../../components/auth-form.css';

type Errors = { password?: string; confirmation?: string };

/** `/user/update-password` (spec §2, §5): 'Welcome back', a new password twice, then the main app. */
export default function UpdatePasswordForm() {
  const { t } = useTranslation('updatePassword');
  useDocumentTitle(t('title'));
  const errorMessage = useErrorMessage();
  const goToMainApp = useGoToMainApp();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const user = currentUser();

  if (!user) {
    return (
      <div className="auth-form">
        <h1>{t('title')}</h1>
        <Alert variant="info">{t('noSession')}</Alert>
        <Link to={userPath('recovery-password')}>{t('startAgain')}</Link>
      </div>
    );
  }

  const passwordProblem = (value: string) =>
    !value ? t('required') : passwordLengthOk(value) ? undefined : t('passwordLength');
  const confirmationProblem = (value: string, first = password) =>
    !value ? t('required') : value !== first ? t('mismatch') : undefined;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !user) return;
    setError(null);
    const found: Errors = { password: passwordProblem(password), confirmation: confirmationProblem(confirmation) };
    setErrors(found);
    if (found.password || found.confirmation) {
      event.currentTarget
        .querySelector<HTMLInputElement>(`[name="${found.password ? 'password' : 'confirmation'}"]`)
        ?.focus();
      return;
    }
    setBusy(true);
    try {
      const session = await updatePassword(user._id, { password, password_confirmation: confirmation });
      // Like the code screen and the login: a session that cannot be stored is a failed request.
      if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      goToMainApp();
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  }

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="update-title">
      <h1 id="update-title">{t('title')}</h1>
      <p className="auth-form__lead">{t('lead', { email: user.email })}</p>
      <PasswordField
        label={t('password')}
        name="password"
        autoComplete="new-password"
        required
        value={password}
        error={errors.password}
        hint={t('passwordHint', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
        onChange={(e) => {
          setPassword(e.target.value);
          if (errors.password) setErrors((f) => ({ ...f, password: undefined }));
        }}
        onBlur={(e) =>
          setErrors((f) => ({ ...f, password: e.target.value ? passwordProblem(e.target.value) : f.password }))
        }
      />
      <PasswordField
        label={t('confirmation')}
        name="confirmation"
        autoComplete="new-password"
        required
        value={confirmation}
        error={errors.confirmation}
        onChange={(e) => {
          setConfirmation(e.target.value);
          if (errors.confirmation) setErrors((f) => ({ ...f, confirmation: undefined }));
        }}
        onBlur={(e) =>
          setErrors((f) => ({
            ...f,
            confirmation: e.target.value ? confirmationProblem(e.target.value) : f.confirmation,
          }))
        }
      />
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" block loading={busy}>
        {t('submit')}
      </Button>
    </form>
  );
}
