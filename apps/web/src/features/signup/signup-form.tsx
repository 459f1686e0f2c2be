import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isEmailShape } from '@suite/contract/core';
import { useConfig } from '../../lib/config';
import { captchaToken } from '../../lib/captcha';
import { flowEmail } from '../../lib/flow-email';
import { saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { EmailField } from '../../components/email-field';
import { Button } from '../../components/button';
import { Alert } from '../../components/alert';
import { signup } from './api/signup';
import { signupFailure } from './signup-outcome';
import '../../components/auth-form.css';

/** `/user/signup` (spec §2): one professional e-mail, Go, link to login. `?inviteToken=` comes from a team link. */
export default function SignupForm() {
  const { t } = useTranslation('signup');
  useDocumentTitle(t('title'));
  const { t: te } = useTranslation('errors');
  const config = useConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const inviteToken = params.get('inviteToken') ?? undefined;
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
      setFieldError(t('invalidEmail'));
      input.current?.focus();
      return;
    }
    inFlight.current = true;
    setBusy(true);
    try {
      const captcha = await captchaToken(config.captchaSiteKey, 'signup');
      const answer = await signup({
        email: address,
        ...(inviteToken ? { invite_token: inviteToken } : {}),
        ...(captcha ? { captcha_token: captcha } : {}),
      });
      // An accepted personal invite proves the address: the answer is a session, the code step is skipped
      // and no address waits for a code (a stale one from an earlier attempt is dropped).
      if (answer.token && answer.profiles && saveSession({ token: answer.token, profiles: answer.profiles })) {
        flowEmail.clear();
        navigate(userPath('welcome'));
      } else {
        flowEmail.set(answer.email || address);
        navigate(userPath('check-token'));
      }
    } catch (caught) {
      const failure = signupFailure(caught);
      inFlight.current = false;
      setBusy(false);
      if (failure.kind === 'code-screen') {
        flowEmail.set(address);
        navigate(userPath('check-token'));
      } else if (failure.kind === 'field') {
        setFieldError(t(failure.key));
        input.current?.focus();
      } else {
        setError(te(failure.code, { defaultValue: te('MSG_REQUEST_ERROR') }));
      }
    }
  }

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="signup-title">
      <h1 id="signup-title">{t('title')}</h1>
      <p className="auth-form__lead">{inviteToken ? t('leadInvite') : t('lead')}</p>
      {!config.publicSignup && !inviteToken ? <Alert variant="info">{t('inviteOnly')}</Alert> : null}
      <EmailField
        ref={input}
        label={t('email')}
        name="email"
        placeholder={t('emailPlaceholder')}
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
        {t('haveAccount')} <Link to={userPath('login')}>{t('toLogin')}</Link>
      </p>
    </form>
  );
}
