import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/i18n-react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { clearAll } from '../../lib/storage';
import { userPath } from '../../lib/paths';
import { Alert } from '../../components/alert';
import './clear-storage.css';

/** `/clear`: clears local storage and says so. */
export default function ClearStoragePage() {
  const { t } = useTranslation('pages');
  const [cleared, setCleared] = useState(false);
  useDocumentTitle(t('clear.title'));
  useEffect(() => {
    clearAll();
    setCleared(true);
  }, []);
  return (
    <div className="card simple-page stack">
      <h1>{t('clear.title')}</h1>
      {/* Its place is kept until the storage is cleared (the page comes prerendered): nothing moves then. */}
      <div className={cleared ? undefined : 'clear__pending'}>
        <Alert variant="success">{t('clear.done')}</Alert>
      </div>
      <Link className="btn btn--primary btn--block" to={userPath('login')}>
        {t('clear.toLogin')}
      </Link>
    </div>
  );
}
