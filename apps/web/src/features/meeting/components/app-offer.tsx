import { useTranslation } from '../../../lib/i18n-react';
import type { BrowserInfo } from '../../../lib/browser';
import { Button } from '../../../components/button';
import { STORE_LINKS } from '../lib/app-links';
import { useMeetingTitle } from '../lib/meeting-title';

/** Mobile: open the room in our meeting app (APP_TITLE), get the app from the stores, or stay in the browser. */
export function AppOffer({
  info,
  deepLink,
  onContinue,
  appName,
}: {
  appName: string;
  info: BrowserInfo;
  deepLink: string;
  onContinue: () => void;
}) {
  const { t } = useTranslation('meeting');
  useMeetingTitle(t('appOffer.title'));
  const stores = info.os === 'android' ? ['android'] : info.os === 'ios' ? ['ios'] : ['android', 'ios'];
  return (
    <section className="meet-card stack" aria-labelledby="app-offer-title">
      <h1 id="app-offer-title">{t('appOffer.title')}</h1>
      <p>{t('appOffer.text', { app: appName })}</p>
      <a className="btn btn--primary btn--block" href={deepLink}>
        {t('appOffer.open')}
      </a>
      <div className="meet-stores">
        {stores.map((s) => (
          <a
            key={s}
            className="btn btn--secondary"
            href={STORE_LINKS[s as 'android' | 'ios']}
            target="_blank"
            rel="noopener noreferrer"
          >
            {s === 'android' ? t('appOffer.googlePlay') : t('appOffer.appStore')}
          </a>
        ))}
      </div>
      <Button variant="link" block onClick={onContinue}>
        {t('appOffer.continue')}
      </Button>
    </section>
  );
}
