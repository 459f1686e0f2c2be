import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/use-document-title';
import { detectBrowser, suggestedBrowsers, type BrowserName } from '../../lib/browser';

const LINKS: Partial<Record<BrowserName, string>> = {
  chrome: 'https://www.google.com/chrome/',
  firefox: 'https://www.mozilla.org/firefox/new/',
  safari: 'https://www.apple.com/safari/',
};
const NAMES: Partial<Record<BrowserName, string>> = {
  chrome: 'Google Chrome',
  firefox: 'Mozilla Firefox',
  safari: 'Safari',
};

/** `/supported-browser`: macOS → Chrome, Firefox, Safari; iOS → Safari; others → Chrome, Firefox; mobile adds a note. */
export default function SupportedBrowserPage() {
  const { t } = useTranslation('pages');
  useDocumentTitle(t('supported.title'));
  const info = useMemo(() => detectBrowser(), []);
  const browsers = suggestedBrowsers(info.os);
  return (
    <div className="card simple-page stack">
      <h1>{t('supported.title')}</h1>
      <p>{t('supported.text')}</p>
      <ul className="browser-list" aria-label={t('supported.listLabel')}>
        {browsers.map((b) => (
          <li key={b} data-browser={b}>
            <a href={LINKS[b]} rel="noopener noreferrer" target="_blank">
              {NAMES[b]}
            </a>
          </li>
        ))}
      </ul>
      {info.mobile ? (
        <p className="muted" data-testid="mobile-note">
          {t('supported.mobileNote')}
        </p>
      ) : null}
    </div>
  );
}
