import { useTranslation } from '../lib/i18n-react';
import { Button } from '../components/button';
import { useDocumentTitle } from '../lib/use-document-title';

/** Shown when a route chunk fails to load (e.g. after a deploy) or a screen throws. */
export function RouteError() {
  const { t } = useTranslation('common');
  useDocumentTitle(t('routeError.title'));
  return (
    <div className="frame" style={{ justifyContent: 'center', alignItems: 'center', padding: '1rem' }}>
      <div className="card simple-page" role="alert">
        <h1>{t('routeError.title')}</h1>
        <p className="muted">{t('routeError.text')}</p>
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
      </div>
    </div>
  );
}
