import { lazy, Suspense, useEffect, useEffectEvent, useState } from 'react';
import { Link } from 'wouter';
import { useEntryState, useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { isEmailShape, normalizeEmail } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { flowEmail } from '../../lib/flow-email';
import { useGoToMainApp } from '../../lib/main-app';
import { saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useSsoDiscovery } from '../../lib/sso';
import { whenIdle } from '../../lib/when-idle';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FormSubmit } from '../../components/form-submit';
import { EmailField } from '../../components/email-field';
import { PasswordField } from '../../components/password-field';
import { Button } from '../../components/button';
import { useDialog } from '../../components/confirm-dialog';
import { Alert } from '../../components/alert';
import { SsoChoice } from '../../components/sso-choice';
import { login, resendConfirmation } from './api/login';
import type { PendingSecondStep } from './second-step';
import '../../components/auth-form.css';

const SecondStep = lazy(() => import('./second-step'));
const EnrolStep = lazy(() => import('./enrol-step'));
const webauthn = () => import('../../lib/webauthn');
const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** `/user/login` (spec §2, §4): e-mail and password; a not-confirmed answer reveals Send again. */
export default function LoginForm() {
  const { t } = useTranslation('login');
  useDocumentTitle(t('title'));
  const navigate = useNavigate();
  const goToMainApp = useGoToMainApp();
  const { confirm } = useDialog();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  // After the password of an account with two-step verification (or a recovery's new password): the code step.
  const entry = useEntryState<{ secondStep?: PendingSecondStep }>();
  const [pending, setPending] = useState<PendingSecondStep | null>(() => entry?.secondStep ?? null);
  // After the password, when the domain requires two-step verification and the person has none yet.
  const [enrolling, setEnrolling] = useState<PendingSecondStep | null>(null);
  /** The address the server said signs in with single sign-on only (before discovery answered). */
  const [ssoOnly, setSsoOnly] = useState<string | null>(null);
  const address = email.trim();
  const discovered = useSsoDiscovery(address);
  const sso = ssoOnly === address ? 'required' : discovered;
  const notConfigured = new URLSearchParams(window.location.search).get('sso') === 'not-configured';
  const { busy, error, setError, field, onSubmit } = useFormSubmit<'email' | 'password'>({
    validate: () => ({
      fields: {
        email: !address ? t('required') : !isEmailShape(address) ? t('invalidEmail') : undefined,
        password: password || sso === 'required' ? undefined : t('required'),
      },
    }),
    captcha: 'login',
    send: async (captcha) => {
      const session = await login({ login: address, password, ...(captcha ? { captcha_token: captcha } : {}) });
      if ('second_step' in session) {
        setPending({ pendingToken: session.pending_token, email: normalizeEmail(address) });
        return;
      }
      if ('enrol' in session) {
        setEnrolling({ pendingToken: session.pending_token, email: normalizeEmail(address) });
        return;
      }
      if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      goToMainApp();
    },
    failure: (caught) => {
      const code = caught instanceof ApiError ? caught.code : '';
      if (code === 'ERR_SSO_LOGIN_ONLY') {
        setSsoOnly(address);
        return null;
      }
      setUnconfirmed(code === 'ERR_USER_NOT_CONFIRMED' ? address : null);
      return { form: caught };
    },
  });

  const resend = useFormSubmit({
    captcha: 'resend',
    send: async (captcha) => {
      if (!unconfirmed) return;
      await resendConfirmation({ email: unconfirmed, ...(captcha ? { captcha_token: captcha } : {}) });
      flowEmail.set(unconfirmed);
      navigate(userPath('check-token'));
    },
    failure: (caught) => {
      setError(caught);
      return null;
    },
  });

  /** A passkey sign-in (the button, or a passkey picked from the e-mail field's autofill): no password, no second step. */
  async function withPasskey(autofill: boolean) {
    const outcome = await webauthn().then(
      (m) => m.passkeySignIn(autofill),
      (caught: unknown) => (autofill ? null : caught),
    );
    if (outcome === 'signed-in') goToMainApp();
    else if (outcome !== null) setError(outcome === 'cancelled' ? t('passkeyCancelled') : outcome);
  }

  /** The passkey button, through the one submit hook (one at a time, busy while the browser asks). */
  const passkey = useFormSubmit({
    movesOn: false,
    send: async () => {
      setError(null);
      if (!passkeysSupported()) return setError(t('passkeyUnsupported'));
      await withPasskey(false);
    },
  });

  /**
   * Passkeys in the e-mail field's autofill (conditional mediation): asked for as soon as the screen is up
   * (the browser's first idle moment: the WebAuthn code is not part of the first paint), so that the browser lists them when the field gets focus. Ended when the form goes (the code
   * step, another screen); the button starts its own.
   */
  const startAutofill = useEffectEvent(() => void withPasskey(true));
  useEffect(() => {
    if (pending || enrolling || !passkeysSupported()) return;
    let started = false;
    const cancel = whenIdle(() => {
      started = true;
      startAutofill();
    });
    return () => {
      cancel();
      if (started) void webauthn().then((m) => m.cancelCeremony());
    };
    // startAutofill is an Effect Event (useEffectEvent), never a dependency; eslint-plugin-react-hooks 5 predates it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending, enrolling]);

  /** Asks first (spec §2), then mails a new code and continues on the code screen. */
  async function sendAgain() {
    if (!unconfirmed) return;
    const yes = await confirm({
      title: t('resendTitle'),
      text: t('resendText', { email: unconfirmed }),
      address: unconfirmed,
      // Answers that say what they do, not Yes/No.
      primaryLabel: t('resendConfirm'),
      secondaryLabel: t('resendCancel'),
    });
    if (yes) await resend.run(null);
  }

  if (enrolling) {
    return (
      <Suspense fallback={null}>
        <EnrolStep
          pending={enrolling}
          onExpired={(reason) => {
            setEnrolling(null);
            setPassword('');
            if (reason) setError(reason);
          }}
        />
      </Suspense>
    );
  }

  if (pending) {
    return (
      <Suspense fallback={null}>
        <SecondStep
          pending={pending}
          onExpired={(reason) => {
            setPending(null);
            setPassword('');
            if (reason) setError(reason);
          }}
        />
      </Suspense>
    );
  }

  return (
    <form className="auth-form" method="post" onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <h1 id="login-title">{t('title')}</h1>
      <p className="auth-form__lead">{t('lead')}</p>
      {notConfigured ? <Alert variant="info">{t('ssoNotConfigured')}</Alert> : null}
      <EmailField
        label={t('email')}
        autoComplete="username webauthn"
        invalidMessage={t('invalidEmail')}
        carried
        {...field('email', email, setEmail)}
      />
      {sso === 'required' ? (
        <SsoChoice email={address} availability="required" />
      ) : (
        <>
          <PasswordField
            label={t('password')}
            autoComplete="current-password"
            {...field('password', password, setPassword)}
          />
          <div className="auth-form__links">
            <Link to={userPath('recovery-password')}>{t('forgot')}</Link>
          </div>
          <FormSubmit error={error} busy={busy} label={t('submit')}>
            {unconfirmed ? (
              <Button variant="secondary" block onClick={() => void sendAgain()} loading={resend.busy}>
                {t('resend')}
              </Button>
            ) : null}
          </FormSubmit>
          <p className="auth-form__or" aria-hidden="true">
            {t('or')}
          </p>
          <Button
            variant="secondary"
            block
            onClick={(event) => void passkey.run(event.currentTarget.form)}
            loading={passkey.busy}
          >
            {t('passkey')}
          </Button>
          <SsoChoice email={address} availability={sso} />
        </>
      )}
      <p className="auth-form__small center-text">
        {t('noAccount')} <Link to={userPath('signup')}>{t('toSignup')}</Link>
      </p>
    </form>
  );
}
