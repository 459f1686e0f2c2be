import { Link } from 'wouter';
import { useTranslation } from '../../lib/i18n-react';
import { SSO_ERROR_REASONS, type SsoErrorReason } from '@suite/contract/core';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * `/login-error-sso?reason=…`: a single-sign-on sign-in that failed, with a title and a text that say
 * what happened and what to do (the server's reason; the generic text for none), and a way back.
 */
export default function SsoErrorPage() {
  const { t } = useTranslation('pages');
  const given = new URLSearchParams(window.location.search).get('reason');
  const reason = SSO_ERROR_REASONS.find((r) => r === given) as SsoErrorReason | undefined;
  const title = reason ? t(`sso.reasons.${reason}.title`) : t('sso.title');
  useDocumentTitle(title);
  return (
    <div className="card simple-page stack">
      <h1>{title}</h1>
      <p>{reason ? t(`sso.reasons.${reason}.text`) : t('sso.text')}</p>
      <Link className="btn btn--primary btn--block" to={userPath('login')}>
        {reason === 'unavailable' || reason === 'expired' || reason === 'invalid' || reason === 'cancelled'
          ? t('sso.retry')
          : reason === 'idp-initiated'
            ? t('sso.startHere')
            : t('sso.toLogin')}
      </Link>
    </div>
  );
}
