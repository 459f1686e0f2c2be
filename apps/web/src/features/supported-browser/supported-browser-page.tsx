import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../lib/i18n-react';
import { useEntryState } from '../../lib/navigation';
import { useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/use-document-title';
import { safeRedirectTarget } from '../../lib/safe-redirect';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';
import './supported-browser.css';
import {
  detectBrowser,
  isSupportedBrowser,
  suggestedBrowsers,
  type BrowserInfo,
  type BrowserName,
} from '../../lib/browser';
import { Button } from '../../components/button';

const LINKS: Partial<Record<BrowserName, string>> = {
  chrome: 'https://www.google.com/chrome/',
  firefox: 'https://www.mozilla.org/firefox/new/',
  safari: 'https://www.apple.com/safari/',
};
/** The browser is known only in it: the page is prerendered (and hydrated) for none in particular. */
const UNKNOWN: BrowserInfo = { os: 'other', browser: 'other', version: 0, mobile: false };
let detected: BrowserInfo | null = null;
const thisBrowser = () => (detected ??= detectBrowser());
const noChange = () => () => undefined;

const NAMES: Record<Exclude<BrowserName, 'other'>, string> = {
  chrome: 'Google Chrome',
  edge: 'Microsoft Edge',
  firefox: 'Mozilla Firefox',
  safari: 'Safari',
  opera: 'Opera',
  samsung: 'Samsung Internet',
};

/**
 * `/supported-browser`: says whether the browser it runs in works (the app's own detection: Edge counts
 * as the Chromium browser it is), suggests browsers per OS (spec §2: macOS → Chrome, Firefox, Safari; iOS →
 * Safari; others → Chrome, Firefox; mobile adds a note), and copies the address to open it elsewhere.
 */
export default function SupportedBrowserPage() {
  const { t } = useTranslation('supportedBrowser');
  const { appTitle } = useConfig();
  const info = useSyncExternalStore(noChange, thisBrowser, () => UNKNOWN);
  const supported = isSupportedBrowser(info);
  const { status, copy } = useCopyToClipboard(2000);
  useDocumentTitle(supported ? t('okTitle') : t('title'));
  // Where this browser works, it is no alternative to itself (an outdated one stays: update it).
  const browsers = suggestedBrowsers(info.os).filter((b) => !(supported && b === info.browser));
  const current = info.browser === 'other' ? null : `${NAMES[info.browser]}${info.version ? ` ${info.version}` : ''}`;
  // The page the person came from (the banner passes it), else the start page: what to open elsewhere.
  const from = useEntryState<{ from?: unknown }>()?.from;
  const address = new URL(safeRedirectTarget(typeof from === 'string' ? from : null) ?? '/', window.location.origin)
    .href;
  return (
    <div className="card simple-page stack" data-testid="supported-browser" data-supported={supported}>
      <h1>{supported ? t('okTitle') : t('title')}</h1>
      <p className="browser-verdict" data-testid="browser-verdict">
        {supported
          ? t(browsers.length ? 'okText' : 'okTextAlone', { browser: current ?? '', app: appTitle })
          : current
            ? t('currentUnsupported', { browser: current })
            : t('text')}
      </p>
      {browsers.length ? (
        <ul className="browser-list" aria-label={t('listLabel')}>
          {browsers.map((b) => (
            <li key={b} data-browser={b}>
              <a href={LINKS[b]} rel="noopener noreferrer" target="_blank">
                {NAMES[b as Exclude<BrowserName, 'other'>]}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {info.mobile ? (
        <p className="muted" data-testid="mobile-note">
          {t('mobileNote')}
        </p>
      ) : null}
      <div className="simple-page__copy">
        <p className="muted">{t('copyLead', { app: appTitle })}</p>
        <div className="row">
          <Button variant="secondary" onClick={() => void copy(address)}>
            {status === 'copied' ? t('copied') : t('copy')}
          </Button>
          <span role="status" className="muted">
            {status === 'manual' ? address : ''}
          </span>
        </div>
      </div>
    </div>
  );
}
