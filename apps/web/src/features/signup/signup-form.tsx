import { lazy, Suspense, useState } from 'react';
import type { AccessRequestReason } from '@suite/contract';
import { Link, useSearchParams } from 'wouter';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { emailDomain, isEmailShape } from '@suite/contract/core';
import { useConfig } from '../../lib/config';
import { flowEmail } from '../../lib/flow-email';
import { saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ApiError } from '../../lib/api-client';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FormSubmit } from '../../components/form-submit';
import { SsoChoice } from '../../components/sso-choice';
import { useSsoDiscovery } from '../../lib/sso';
import { EmailField } from '../../components/email-field';
import { Alert } from '../../components/alert';
import { WithDomain } from '../../components/address';
import { signup } from './api/signup';
import { signupFailure } from './signup-outcome';
import '../../components/auth-form.css';

const AskForAccess = lazy(() => import('../../components/ask-for-access'));

/** Refusals that say "ask your domain administrator", and what the access request says the person met. */
const ASK_REASON: Partial<Record<string, AccessRequestReason>> = {
  ERR_DOMAIN_INACTIVE: 'domain_inactive',
  ERR_SIGNUP_INVITE_ONLY: 'invite_only',
  ERR_SIGNUP_APPROVAL_PENDING: 'approval',
};

/** `/user/signup` (spec §2): one professional e-mail, Go, link to login. `?inviteToken=` comes from a team link. */
export default function SignupForm() {
  const { t } = useTranslation('signup');
  useDocumentTitle(t('title'));
  const config = useConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const inviteToken = params.get('inviteToken') ?? undefined;
  const [email, setEmail] = useState('');
  // An address that already has an account: the message leads to logging in or resetting the password.
  const [inUse, setInUse] = useState(false);
  // A refusal the domain's administrators can lift: the address it was for, and why.
  const [ask, setAsk] = useState<{ email: string; reason: AccessRequestReason } | null>(null);
  const address = email.trim();
  // A single-sign-on-only domain signs up through its provider: the first sign-in makes the account.
  const sso = useSsoDiscovery(address);
  const { busy, error, field, onSubmit } = useFormSubmit<'email'>({
    validate: () => ({
      fields: { email: !address ? t('emailRequired') : isEmailShape(address) ? undefined : t('invalidEmail') },
    }),
    captcha: 'signup',
    send: async (captcha) => {
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
    },
    failure: (caught) => {
      const failure = signupFailure(caught);
      // Refused as personal: the way in is a colleague's invitation, said with the spec's text.
      if (failure.kind === 'field')
        return {
          field: 'email',
          message: failure.key === 'personalEmail' ? `${t('personalEmail')} ${t('personalEmailHelp')}` : t(failure.key),
        };
      setInUse(failure.kind === 'error' && failure.code === 'ERR_EMAIL_IN_USE');
      const reason = failure.kind === 'error' ? ASK_REASON[failure.code] : undefined;
      setAsk(reason ? { email: address, reason } : null);
      // The failure's catalogue text, looked up at each render (the error texts may come after the answer).
      if (failure.kind !== 'code-screen')
        return { form: new ApiError(caught instanceof ApiError ? caught.status : 0, failure.code, '') };
      flowEmail.set(address);
      navigate(userPath('check-token'));
      return null;
    },
  });

  return (
    <form
      className="auth-form"
      method="post"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="signup-title"
      // The layout's side panel reads it (frame.css): on a single-sign-on domain it promises no code either.
      data-sso={sso === 'required' ? 'required' : undefined}
    >
      <h1 id="signup-title">{t('title')}</h1>
      {/* On a single-sign-on domain no code comes from here: the lead says how the account is made, once
          (the single sign-on button below carries no note of its own). */}
      <p className="auth-form__lead" data-testid="signup-lead">
        {sso === 'required' ? (
          <WithDomain text={t('leadSso', { domain: emailDomain(address) })} domain={emailDomain(address)} />
        ) : inviteToken ? (
          t('leadInvite')
        ) : (
          t('lead')
        )}
      </p>
      {!config.publicSignup && !inviteToken ? <Alert variant="info">{t('inviteOnly')}</Alert> : null}
      <EmailField
        label={t('email')}
        placeholder={t('emailPlaceholder')}
        invalidMessage={t('invalidEmail')}
        carried
        {...field('email', email, (value: string) => {
          setEmail(value);
          setInUse(false);
          setAsk(null);
        })}
      />
      {sso === 'required' ? (
        <SsoChoice email={address} availability="required" note={false} />
      ) : (
        <>
          {/* Stays until the address changes (leaving the field changes nothing): its links are reached by
              Tab and click, and the address typed goes with them (lib/carried-address). */}
          {inUse && error ? (
            <Alert>
              {error}{' '}
              <span className="alert__links">
                <Link to={userPath('login')}>{t('inUseLogin')}</Link>
                <Link to={userPath('recovery-password')}>{t('inUseReset')}</Link>
              </span>
            </Alert>
          ) : null}
          <FormSubmit error={inUse ? null : error} busy={busy} label={t('submit')}>
            {ask && error ? (
              <Suspense fallback={null}>
                <AskForAccess key={`${ask.email}:${ask.reason}`} reason={ask.reason} email={ask.email} />
              </Suspense>
            ) : null}
          </FormSubmit>
        </>
      )}
      <p className="auth-form__small center-text">
        {t('haveAccount')} <Link to={userPath('login')}>{t('toLogin')}</Link>
      </p>
    </form>
  );
}
