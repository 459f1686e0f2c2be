import { useTranslation } from '../lib/i18n-react';
import { Button } from '../components/button';
import { useDocumentTitle } from '../lib/use-document-title';
import { PageFrame } from './page-frame';

/**
 * Shown when a route chunk fails to load (e.g. after a deploy) or a screen throws: inside the frame (its
 * code is part of the app's first file), so that the footer and the language switch stay.
 */
export function RouteError() {
  const { t } = useTranslation('common');
  useDocumentTitle(t('routeError.title'));
  return (
    <PageFrame>
      <div className="card simple-page stack" role="alert">
        <h1>{t('routeError.title')}</h1>
        <p className="muted">{t('routeError.text')}</p>
        <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
      </div>
    </PageFrame>
  );
}
