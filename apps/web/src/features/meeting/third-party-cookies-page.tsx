import { useEntryState } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { Button } from '../../components/button';
import { safeRedirectTarget } from '../../lib/safe-redirect';
import { useDocumentTitle } from '../../lib/use-document-title';
import './third-party-cookies.css';

const BROWSERS = ['chrome', 'firefox', 'safari', 'edge'] as const;

/** Help for the third-party-cookie notice: why the room needs storage, how to allow it per browser, Reload. */
export default function ThirdPartyCookiesPage() {
  const { t } = useTranslation(['meeting', 'common']);
  useDocumentTitle(t('cookiesHelp.title'));
  // Back to the meeting that sent the person here (same origin only), else reload this page.
  const state = useEntryState<{ from?: unknown }>();
  const from = typeof state?.from === 'string' ? safeRedirectTarget(state.from) : null;
  const reload = () => (from ? window.location.assign(from) : window.location.reload());
  return (
    <article className="card simple-page stack meet-help-page">
      <h1>{t('cookiesHelp.title')}</h1>
      <p className="muted">{t('cookiesHelp.why')}</p>
      <h2 className="meet-help__h2">{t('cookiesHelp.how')}</h2>
      <dl className="meet-help">
        {BROWSERS.map((b) => (
          <div key={b} className="meet-help__item">
            <dt>{t(`cookiesHelp.browsers.${b}.name`)}</dt>
            <dd>{t(`cookiesHelp.browsers.${b}.steps`)}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t('cookiesHelp.after')}</p>
      <Button block onClick={reload}>
        {t('common:actions.reload')}
      </Button>
    </article>
  );
}
