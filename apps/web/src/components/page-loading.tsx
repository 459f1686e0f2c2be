import { useTranslation } from '../lib/i18n-react';

/**
 * The spinner while a screen's code or data loads. Its status text is for screen readers; it may show
 * before the translations are in (the app's outermost Suspense), hence no suspending and an English default.
 */
export function PageLoading() {
  const { t, ready } = useTranslation('common', { useSuspense: false });
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="btn__spinner" aria-hidden="true" style={{ width: 28, height: 28, color: 'var(--blue)' }} />
      <span className="visually-hidden">{ready ? t('loading') : 'Loading…'}</span>
    </div>
  );
}
