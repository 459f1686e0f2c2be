import { Link } from 'wouter';
import { useTranslation } from '../../lib/i18n-react';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

/** `/login-error-sso`: single-sign-on login error, with a title and text. */
export default function SsoErrorPage() {
  const { t } = useTranslation('pages');
  useDocumentTitle(t('sso.title'));
  return (
    <div className="card simple-page stack">
      <h1>{t('sso.title')}</h1>
      <p>{t('sso.text')}</p>
      <Link to={userPath('login')}>{t('sso.toLogin')}</Link>
    </div>
  );
}
