import { Link } from 'wouter';
import { useTranslation } from '../lib/i18n-react';
import { PATHS } from '../lib/paths';
import { useDocumentTitle } from '../lib/use-document-title';

function NotFoundPage() {
  const { t } = useTranslation('pages');
  useDocumentTitle(t('notFound.title'));
  return (
    <div className="card simple-page stack">
      <h1>{t('notFound.title')}</h1>
      <p className="muted">{t('notFound.text')}</p>
      <Link className="btn btn--primary btn--block" to={PATHS.root}>
        {t('notFound.back')}
      </Link>
    </div>
  );
}

export default NotFoundPage;
