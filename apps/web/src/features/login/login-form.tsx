import { lazy, Suspense, useEffect, useEffectEvent, useState } from 'react';
import { Link } from 'wouter';
import { useEntryState, useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { emailDomain, isEmailShape, normalizeEmail } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { flowEmail } from '../../lib/flow-email';
import { useGoToMainApp } from '../../lib/main-app';
import { saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { carriedAddress } from '../../lib/carried-address';
import { ssoStartUrl, useSsoDiscovery } from '../../lib/sso';
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
import { WithDomain } from '../../components/address';
import '../../components/auth-form.css';
import './login.css';

const SecondStep = lazy(() => import('./second-step'));
const EnrolStep = lazy(() => import('./enrol-step'));
const webauthn = () => import('../../lib/webauthn');
const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * `/user/login` (spec §2, §4), identifier-first (Okta's and Entra's pattern) without an extra click: the
 * e-mail comes first and the password field stands below it from the start (a password manager fills
 * both at once, and most domains sign in with a password); once the typed address settles on a complete
 * one, home-realm discovery says whether its domain has single sign-on, and then "Continue with single
 * sign-on" becomes the one primary action (the password behind a quiet link, or gone where the domain
 * signs in with single sign-on only). Everything else is a quiet link: forgot, passkey, sign-up, and the
 * not-confirmed message's "Send a new confirmation code".
 */
export default function LoginForm() {
  const { t } = useTranslation('login');
  useDocumentTitle(t('title'));
  const navigate = useNavigate();
  const goToMainApp = useGoToMainApp();
  const { confirm } = useDialog();
  const [email, setEmail] = useState('');
  // What was typed on the recovery or sign-up form comes along (and goes back with any change here).
  // After hydration, not in the first render: the prerendered page has an empty field, and what was
  // typed into it before the app ran (handed over in the field's own first effect) wins.
  useEffect(() => setEmail((typed) => typed || carriedAddress.get()), []);
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
  /** On a domain with single sign-on beside passwords: the person chose the password (or one is typed already). */
  const [passwordChosen, setPasswordChosen] = useState(false);
  const ssoFirst = sso === 'required' || (sso === 'available' && !passwordChosen && !password);
  useEffect(() => carriedAddress.set(address), [address]);
  const { busy, error, setError, field, onSubmit } = useFormSubmit<'email' | 'password'>({
    validate: () => ({
      fields: {
        email: !address ? t('emailRequired') : !isEmailShape(address) ? t('invalidEmail') : undefined,
        password: password || sso === 'required' ? undefined : t('passwordRequired'),
      },
    }),
    captcha: 'login',
    send: async (captcha) => {
      const session = await login({ login: address, password, ...(captcha ? { captcha_token: captcha } : {}) });
      if ('second_step' in session) {
        setPending({
          pendingToken: session.pending_token,
          email: normalizeEmail(address),
          trustAllowed: session.trust_allowed === true,
        });
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

  const domain = sso === 'none' ? '' : emailDomain(normalizeEmail(address));
  const notConfirmed = unconfirmed !== null && unconfirmed === address && error !== null;
  return (
    <form className="auth-form" method="post" onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <h1 id="login-title">{t('title')}</h1>
      {/* The lead follows the state: a domain with single sign-on is told so, and promised no password;
          once the person chose the password instead, the lead asks for the password the form shows. */}
      <p className="auth-form__lead" aria-live="polite">
        {domain && ssoFirst ? <WithDomain text={t('ssoLead', { domain })} domain={domain} /> : t('lead')}
      </p>
      {notConfigured ? <Alert variant="info">{t('ssoNotConfigured')}</Alert> : null}
      <EmailField
        label={t('email')}
        autoComplete="username webauthn"
        invalidMessage={t('invalidEmail')}
        carried
        {...field('email', email, setEmail)}
      />
      {ssoFirst ? (
        <>
          <SsoChoice email={address} availability="required" note={false} />
          {sso === 'available' ? (
            <div className="auth-form__links auth-form__links--center">
              <Button variant="link" className="auth-form__quiet" onClick={() => setPasswordChosen(true)}>
                {t('usePassword')}
              </Button>
            </div>
          ) : null}
        </>
      ) : (
        <>
          <PasswordField
            label={t('password')}
            autoComplete="current-password"
            autoFocus={passwordChosen}
            {...field('password', password, setPassword)}
          />
          <div className="auth-form__links login__links">
            <Link to={userPath('recovery-password')}>{t('forgot')}</Link>
            <Button
              variant="link"
              className="auth-form__quiet login__passkey"
              onClick={(event) => void passkey.run(event.currentTarget.form)}
              loading={passkey.busy}
            >
              {/* Both texts hold the place of the longer one: the row does not move when one replaces
                  the other; the hidden one is out of the button's name. */}
              <span className="login__passkey-texts">
                <span
                  className={passkey.busy ? 'login__passkey-off' : undefined}
                  aria-hidden={passkey.busy || undefined}
                >
                  {t('passkey')}
                </span>
                <span
                  className={passkey.busy ? undefined : 'login__passkey-off'}
                  aria-hidden={!passkey.busy || undefined}
                >
                  {t('passkeyWaiting')}
                </span>
              </span>
            </Button>
            <span role="status" className="visually-hidden" data-testid="passkey-status">
              {passkey.busy ? t('passkeyWaiting') : ''}
            </span>
          </div>
          {notConfirmed ? (
            // The way out of "not confirmed" sits inside its message: one primary action stays below.
            <Alert>
              <span>{error}</span>{' '}
              <Button
                variant="link"
                className="login__in-message"
                onClick={() => void sendAgain()}
                loading={resend.busy}
              >
                {t('resend')}
              </Button>
            </Alert>
          ) : null}
          <FormSubmit error={notConfirmed ? null : error} busy={busy} label={t('submit')} />
          {sso === 'available' ? (
            <div className="auth-form__links auth-form__links--center">
              <a href={ssoStartUrl(address)}>{t('useSso')}</a>
            </div>
          ) : null}
        </>
      )}
      <p className="auth-form__small center-text">
        {t('noAccount')} <Link to={userPath('signup')}>{t('toSignup')}</Link>
      </p>
    </form>
  );
}
