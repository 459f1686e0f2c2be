import { Suspense, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from '../lib/i18n-react';
import { LANGUAGES, type Language } from '@suite/contract/core';
import { useConfig } from '../lib/config';
import { whenIdle } from '../lib/when-idle';
import { changeLanguage } from '../lib/i18n';
import { takeTyped } from '../lib/typed-early';
import { useHere } from '../lib/navigation';
import { PATHS } from '../lib/paths';
import { Logo } from '../components/logo';
import { PageLoading } from '../components/page-loading';
import './frame.css';

const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  pt: 'Português',
  es: 'Español',
  hi: 'हिन्दी',
  it: 'Italiano',
};

const noChange = () => () => undefined;
const currentYear = () => new Date().getFullYear();

/**
 * Whether this browser is one we support (spec §2's warning). A prerendered page says "supported"; the
 * browser's own answer comes at its first idle moment (the check's code is not part of the first paint).
 */
function useSupportedBrowser(): boolean {
  const [supported, setSupported] = useState(true);
  useEffect(() => {
    let current = true;
    const cancel = whenIdle(
      () => void import('../lib/browser').then((m) => current && setSupported(m.isSupportedBrowser())),
    );
    return () => {
      current = false;
      cancel();
    };
  }, []);
  return supported;
}

/**
 * The shared frame of sign-in style screens (spec §2): gradient background, header with the 150 px logo
 * linking to the main app, footer with the year and copyright line, the unsupported-browser warning.
 */
export function PageFrame({ children }: { children?: ReactNode }) {
  const config = useConfig();
  const { t, i18n } = useTranslation('common');
  const supported = useSupportedBrowser();
  // A prerendered page says the year it was built, then the browser's own answer applies.
  const year = useSyncExternalStore(noChange, currentYear, () => __BUILD_YEAR__);
  const here = useHere();
  // A language chosen in the prerendered footer before the app ran applies once it has (lib/typed-early).
  const languageSelect = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    const chosen = takeTyped(languageSelect.current);
    if (chosen) void changeLanguage(chosen as Language);
  }, []);
  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        {t('frame.skip')}
      </a>
      {config.hideHeader ? null : (
        <header className="frame__header">
          <a href={config.mainAppUrl} className="frame__logo" aria-label={t('frame.home', { app: config.appTitle })}>
            <Logo title={config.appTitle} light />
          </a>
        </header>
      )}
      {supported ? null : (
        <div className="frame__warning" role="status">
          {t('MSG_HOMOLOGATED_BROWSER')}{' '}
          <Link to={PATHS.supportedBrowser} state={{ from: here }}>
            {t('frame.seeBrowsers')}
          </Link>
        </div>
      )}
      <main id="main" className="frame__main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          {children}
          <RouteFocus />
        </Suspense>
      </main>
      {config.hideFooter ? null : (
        <footer className="frame__footer">
          <span>{t('frame.copyright', { year, app: config.appTitle })}</span>
          <label className="frame__lang">
            <span className="visually-hidden">{t('frame.language')}</span>
            <select
              ref={languageSelect}
              name="language"
              value={(i18n.resolvedLanguage ?? 'en') as Language}
              onChange={(e) => void changeLanguage(e.target.value as Language)}
            >
              {LANGUAGES.map((l) => (
                <option key={l} value={l} lang={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </label>
        </footer>
      )}
    </div>
  );
}

/**
 * After a move to another page of the frame, the focus goes to the new page's heading (or to <main>):
 * the element that had it is gone, and the focus would fall back to the top of the document. Inside the
 * Suspense boundary, so it runs once the new page has rendered. The /user forms do this themselves.
 */
function RouteFocus() {
  const [pathname] = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const from = previous.current;
    previous.current = pathname;
    if (from === null || from === pathname || pathname.startsWith('/user/')) return;
    const main = document.getElementById('main');
    // A page that put the caret in its field (the guest name) keeps it there.
    const active = document.activeElement;
    if (active && active !== main && main?.contains(active)) return;
    const heading = main?.querySelector<HTMLElement>('h1');
    if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    (heading ?? main)?.focus();
  }, [pathname]);
  return null;
}
