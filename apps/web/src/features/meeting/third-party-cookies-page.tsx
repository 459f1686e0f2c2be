import { useTranslation } from 'react-i18next';

const BROWSERS = ['chrome', 'firefox', 'safari', 'edge'] as const;

/** Help for the third-party-cookie notice: why the room needs storage and how to allow it per browser. */
export default function ThirdPartyCookiesPage() {
  const { t } = useTranslation('meeting');
  return (
    <article className="card simple-page stack">
      <h1>{t('cookiesHelp.title')}</h1>
      <p>{t('cookiesHelp.why')}</p>
      <h2 className="meet-help__h2">{t('cookiesHelp.how')}</h2>
      <dl className="meet-help">
        {BROWSERS.map((b) => (
          <div key={b}>
            <dt>{t(`cookiesHelp.browsers.${b}.name`)}</dt>
            <dd>{t(`cookiesHelp.browsers.${b}.steps`)}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t('cookiesHelp.after')}</p>
    </article>
  );
}
