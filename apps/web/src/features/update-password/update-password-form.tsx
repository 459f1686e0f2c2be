import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { emailDomain, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, REDIRECT_AFTER_MS } from '@suite/contract/core';
import { useSsoDiscovery } from '../../lib/sso';
import { ApiError } from '../../lib/api-client';
import { useGoToMainApp } from '../../lib/main-app';
import { passwordLengthOk } from '../../lib/password-rules';
import { decodeToken } from '../../lib/jwt';
import { clearSession, currentToken, currentUser, saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FormSubmit } from '../../components/form-submit';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PasswordField } from '../../components/password-field';
import { NoSession } from '../../components/no-session';
import { updatePassword } from './api/update-password';
import { WithAddress, WithDomain } from '../../components/address';
import '../../components/auth-form.css';

// Only an account with two-step verification reaches it (after the server asks): not in the first load.
const PasswordCodeStep = lazy(() => import('./code-step').then((m) => ({ default: m.PasswordCodeStep })));

/**
 * `/user/update-password` (spec §2, §5): 'Welcome back', a new password twice, then the main app. With the
 * recovery token (after the e-mailed code) nothing more is asked; with a normal session the current
 * password is asked too (the server requires it).
 */
export default function UpdatePasswordForm() {
  const { t } = useTranslation('updatePassword');
  const user = currentUser();
  // Without a recovery (or a session) there is nothing to welcome back to: the ended state has its own name.
  useDocumentTitle(user ? t('title') : t('endedTitle'));
  const goToMainApp = useGoToMainApp();
  const navigate = useNavigate();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  // A recovery of an account with two-step verification: the server asks for the app or a recovery
  // code before it changes anything (it alone knows the account's factors); the code is then a step of
  // its own, the passwords typed kept for it.
  const [codeStep, setCodeStep] = useState(false);
  // The change is said, then the app opens (after REDIRECT_AFTER_MS, or at once with Continue).
  const [changed, setChanged] = useState(false);
  useEffect(() => {
    if (!changed) return;
    const timer = window.setTimeout(goToMainApp, REDIRECT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [changed, goToMainApp]);
  const token = currentToken();
  const needsCurrent = Boolean(token) && decodeToken<{ kind?: string }>(token ?? '')?.kind !== 'recovery';
  const passwordProblem = (value: string) =>
    !value ? t('passwordRequired') : passwordLengthOk(value) ? undefined : t('passwordLength');
  const confirmationProblem = (value: string, first = password) =>
    !value ? t('confirmationRequired') : value !== first ? t('mismatch') : undefined;
  // A single-sign-on domain keeps its people's passwords: nothing to change here (said, with the way on).
  const sso = useSsoDiscovery(user?.email ?? '');
  const { busy, error, setError, field, checkField, onSubmit, run } = useFormSubmit<
    'current' | 'password' | 'confirmation'
  >({
    validate: () => {
      const fields = {
        current: needsCurrent && !current ? t('currentRequired') : undefined,
        password: passwordProblem(password),
        confirmation: confirmationProblem(confirmation),
      };
      // Each field names what it misses; the spec's "Please fill in all fields." stays the form's message.
      const missing = (needsCurrent && !current) || !password || !confirmation;
      return { fields, ...(missing ? { form: t('required') } : {}) };
    },
    failure: (failure) => {
      // Not a mistake of the person's: the question they have not seen yet, asked calmly.
      if (failure instanceof ApiError && failure.code === 'ERR_SECOND_FACTOR_REQUIRED') {
        setCodeStep(true);
        return null;
      }
      return { form: failure };
    },
    send: () => save(undefined),
  });

  async function save(code: string | undefined) {
    if (!user) return;
    const session = await updatePassword(user._id, {
      password,
      password_confirmation: confirmation,
      ...(needsCurrent ? { current_password: current } : {}),
      ...(code ? { code } : {}),
    });
    // Two-step verification is on and the server asks for the code as a step of its own: the login's
    // code step, with the trust box where the domain allows it (trust_allowed), as after a password.
    // (Today's server takes the code in this same request instead, and earns no trust there: a recovery
    // moves the credential generation, which voids every trusted browser, and the next sign-in with
    // the new password and the code is where this browser may be trusted again.)
    if ('second_step' in session) {
      clearSession();
      navigate(userPath('login'), {
        replace: true,
        state: {
          secondStep: {
            pendingToken: session.pending_token,
            email: user.email,
            trustAllowed: session.trust_allowed === true,
          },
        },
      });
      return;
    }
    // Like the code screen and the login: a session that cannot be stored is a failed request.
    if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
    setChanged(true);
  }

  if (!user) {
    return (
      <NoSession
        title={t('endedTitle')}
        message={t('noSession')}
        linkTo={userPath('recovery-password')}
        linkText={t('startAgain')}
      />
    );
  }

  if (sso === 'required') {
    return (
      <div className="auth-form">
        <h1>{t('title')}</h1>
        <p className="auth-form__lead" data-testid="update-sso-lead">
          <WithDomain text={t('ssoLead', { domain: emailDomain(user.email) })} domain={emailDomain(user.email)} />
        </p>
        <Button onClick={goToMainApp}>{t('continue')}</Button>
      </div>
    );
  }

  if (changed) {
    return (
      <div className="auth-form">
        <h1>{t('title')}</h1>
        <Alert variant="success">{t('changed')}</Alert>
        <Button onClick={goToMainApp}>{t('continue')}</Button>
      </div>
    );
  }

  if (codeStep) {
    return (
      <Suspense fallback={null}>
        <PasswordCodeStep
          email={user.email}
          busy={busy}
          error={error}
          onSend={(code) => run(null, () => save(code))}
          onBack={() => {
            setError(null);
            setCodeStep(false);
          }}
          onType={() => setError(null)}
        />
      </Suspense>
    );
  }

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="update-title">
      <h1 id="update-title">{t('title')}</h1>
      <p className="auth-form__lead">
        <WithAddress email={user.email} text={t('lead', { email: user.email })} />
      </p>
      {needsCurrent ? (
        <PasswordField
          label={t('current')}
          autoComplete="current-password"
          {...field('current', current, setCurrent)}
        />
      ) : null}
      <PasswordField
        label={t('password')}
        autoComplete="new-password"
        hint={t('passwordHint', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
        onBlur={(e) => checkField('password', e.target.value, passwordProblem)}
        {...field('password', password, setPassword)}
      />
      <PasswordField
        label={t('confirmation')}
        autoComplete="new-password"
        onBlur={(e) => checkField('confirmation', e.target.value, confirmationProblem)}
        {...field('confirmation', confirmation, setConfirmation)}
      />
      <FormSubmit error={error} busy={busy} label={t('submit')} />
    </form>
  );
}
