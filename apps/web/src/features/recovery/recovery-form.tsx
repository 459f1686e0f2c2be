import { useState } from 'react';
import { Link } from 'wouter';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { emailDomain, isEmailShape } from '@suite/contract/core';
import { flowEmail } from '../../lib/flow-email';
import { userPath } from '../../lib/paths';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FormSubmit } from '../../components/form-submit';
import { SsoChoice } from '../../components/sso-choice';
import { useSsoDiscovery } from '../../lib/sso';
import { useDocumentTitle } from '../../lib/use-document-title';
import { EmailField } from '../../components/email-field';
import { forgotPassword } from './api/forgot-password';
import { WithDomain } from '../../components/address';
import '../../components/auth-form.css';

/** `/user/recovery-password` (spec §2): e-mail, Recovery, Back; then the recovery code screen. */
export default function RecoveryForm() {
  const { t } = useTranslation('recovery');
  useDocumentTitle(t('title'));
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const address = email.trim();
  // An address of a single-sign-on-only domain has no password here to recover: its provider has it.
  const sso = useSsoDiscovery(address);
  const { busy, error, field, onSubmit } = useFormSubmit<'email'>({
    validate: () => ({
      fields: { email: !address ? t('required') : !isEmailShape(address) ? t('invalidEmail') : undefined },
    }),
    captcha: 'recovery',
    send: async (captcha) => {
      await forgotPassword({ email: address, ...(captcha ? { captcha_token: captcha } : {}) });
      flowEmail.set(address);
      navigate(userPath('check-token-recovery'));
    },
  });

  return (
    <form
      className="auth-form"
      method="post"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="recovery-title"
      // The layout's side panel reads it (frame.css): on a single-sign-on domain it promises no code either.
      data-sso={sso === 'required' ? 'required' : undefined}
    >
      <h1 id="recovery-title">{t('title')}</h1>
      {/* On a single-sign-on domain no code and no password come from here: the lead says where to go. */}
      <p className="auth-form__lead" data-testid="recovery-lead">
        {sso === 'required' ? (
          <WithDomain text={t('leadSso', { domain: emailDomain(address) })} domain={emailDomain(address)} />
        ) : (
          t('lead')
        )}
      </p>
      <EmailField label={t('email')} invalidMessage={t('invalidEmail')} carried {...field('email', email, setEmail)} />
      {sso === 'required' ? (
        // The lead says it already: the button comes without a note repeating it.
        <SsoChoice email={address} availability="required" note={false} />
      ) : (
        <FormSubmit error={error} busy={busy} label={t('submit')} />
      )}
      <p className="auth-form__small center-text">
        <Link to={userPath('login')}>{t('back')}</Link>
      </p>
    </form>
  );
}
