import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isEmailShape } from '@suite/contract/core';
import { captchaToken } from '../../lib/captcha';
import { useConfig } from '../../lib/config';
import { flowEmail } from '../../lib/flow-email';
import { userPath } from '../../lib/paths';
import { useErrorMessage } from '../../lib/use-error-message';
import { useDocumentTitle } from '../../lib/use-document-title';
import { EmailField } from '../../components/email-field';
import { Button } from '../../components/button';
import { Alert } from '../../components/alert';
import { forgotPassword } from './api/forgot-password';
import '../../components/auth-form.css';

/** `/user/recovery-password` (spec §2): e-mail, Recovery, Back; then the recovery code screen. */
export default function RecoveryForm() {
  const { t } = useTranslation('recovery');
  useDocumentTitle(t('title'));
  const errorMessage = useErrorMessage();
  const config = useConfig();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const input = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // A ref, not the busy state: a second submit in the same tick still sees the old state.
    if (inFlight.current) return;
    const address = email.trim();
    setError(null);
    if (!address || !isEmailShape(address)) {
      setFieldError(address ? t('invalidEmail') : t('required'));
      input.current?.focus();
      return;
    }
    inFlight.current = true;
    setBusy(true);
    try {
      const captcha = await captchaToken(config.captchaSiteKey, 'recovery');
      await forgotPassword({ email: address, ...(captcha ? { captcha_token: captcha } : {}) });
      flowEmail.set(address);
      navigate(userPath('check-token-recovery'));
    } catch (caught) {
      setError(errorMessage(caught));
      inFlight.current = false;
      setBusy(false);
    }
  }

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="recovery-title">
      <h1 id="recovery-title">{t('title')}</h1>
      <p className="auth-form__lead">{t('lead')}</p>
      <EmailField
        ref={input}
        label={t('email')}
        name="email"
        required
        value={email}
        invalidMessage={t('invalidEmail')}
        error={fieldError}
        onChange={(value) => {
          setEmail(value);
          setFieldError(null);
        }}
      />
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" block loading={busy}>
        {t('submit')}
      </Button>
      <p className="auth-form__small center-text">
        <Link to={userPath('login')}>{t('back')}</Link>
      </p>
    </form>
  );
}
