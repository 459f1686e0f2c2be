import { useTranslation } from '../lib/i18n-react';
import { emailDomain } from '@suite/contract/core';
import { ssoStartUrl, type SsoAvailability } from '../lib/sso';
import { carriedAddress } from '../lib/carried-address';
import { Alert } from './alert';
import './ui.css';
import { WithDomain } from './address';

/**
 * (Loaded by sso-choice.tsx once discovery found a provider: not part of the entry screens' first load.)
 * "Continue with single sign-on" for an address whose domain has an identity provider: the only way
 * in when the domain signs in with single sign-on alone ('required'), one more way otherwise. A plain
 * link: the server answers it with a redirect to the provider.
 */
export default function SsoChoiceView({
  email,
  availability,
  note = true,
}: {
  email: string;
  availability: Exclude<SsoAvailability, 'none'>;
  note?: boolean | undefined;
}) {
  const { t } = useTranslation('sso');
  const link = (
    <a
      className={`btn btn--block ${availability === 'required' ? 'btn--primary' : 'btn--secondary'}`}
      href={ssoStartUrl(email)}
      // The address rides along (tab storage, never the URL): if the provider fails, the error page can
      // offer the password where the domain takes one, and the login form comes back filled in.
      onClick={() => carriedAddress.set(email)}
    >
      {t('continue')}
    </a>
  );
  if (availability === 'required' && note) {
    const domain = emailDomain(email.trim().toLowerCase());
    return (
      <div className="stack">
        <Alert variant="info">
          <WithDomain text={t('required', { domain })} domain={domain} />
        </Alert>
        {link}
      </div>
    );
  }
  // Beside the other ways in (the login screen's "or" already stands above them).
  return link;
}
