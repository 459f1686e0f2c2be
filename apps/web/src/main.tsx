import './styles/fonts.css';
import './styles/global.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { LANGUAGES, type Language } from '@suite/contract/core';
import { FALLBACK_CONFIG, PRERENDER_CONFIG, loadConfig } from './lib/config';
import { detectLanguage, initI18n, storedLanguage } from './lib/i18n';
import { whenIdle } from './lib/when-idle';
import { takeOver } from './lib/typed-early';
import { Providers } from './app/providers';
import { AppRouter, loadFirstRoute } from './app/router';

/**
 * An entry screen arrives prerendered (`data-path`: the address it was rendered for, `lang` on <html>:
 * the language the server chose from Accept-Language): it is hydrated in that language with the settings
 * it was rendered with, unless a language chosen in the footer differs or the address has a query (then
 * it is rendered anew).
 */
function prerendered(root: HTMLElement): { path: string; language: Language } | null {
  const path = root.dataset.path;
  const language = root.dataset.lang as Language | undefined;
  if (!path || !language || !(LANGUAGES as readonly string[]).includes(language)) return null;
  // The markup was rendered without a query: an address with one (an invitation's token, a share key,
  // the page to come back to) may show something else, so it is rendered anew instead.
  if (window.location.search) return null;
  const stored = storedLanguage();
  return stored && stored !== language ? null : { path, language };
}

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) return;
  const page = prerendered(root);
  // No waterfall: the language is set first (synchronously), then the route's screen and its texts
  // start loading together with the settings and the common texts.
  const texts = initI18n(page?.language ?? detectLanguage());
  const screen = loadFirstRoute().catch(() => undefined); // a failed load shows the error screen
  const settings = loadConfig().catch(() => FALLBACK_CONFIG);
  // The logger says nothing until the settings turn it on: its code loads once the first screen is up,
  // not with it, and what went wrong before then is reported when it has.
  let loadLogger = () => {};
  const logging = new Promise<void>((resolve) => (loadLogger = resolve))
    .then(() => Promise.all([import('./lib/logger'), settings]))
    .then(([{ configureLogger, logger }, config]) => (configureLogger(config), logger))
    .catch(() => null);
  window.addEventListener(
    'unhandledrejection',
    (e) => void logging.then((logger) => logger?.error('unhandled rejection', { reason: String(e.reason) })),
  );
  window.addEventListener(
    'error',
    (e) => void logging.then((logger) => logger?.error('uncaught error', { message: e.message })),
  );
  const afterFirstScreen = () => whenIdle(loadLogger, 5000);
  if (page) {
    // Hydrated as soon as its code and texts are in; the server's settings apply right after.
    await Promise.all([texts, screen]);
    takeOver(root);
    hydrateRoot(
      root,
      <Providers config={PRERENDER_CONFIG} later={settings}>
        <AppRouter ssrPath={page.path} ssrSearch="" />
      </Providers>,
    );
    afterFirstScreen();
    return;
  }
  const [config] = await Promise.all([settings, texts, screen]);
  document.title = config.appTitle;
  takeOver(null);
  root.textContent = '';
  createRoot(root).render(
    <Providers config={config}>
      <AppRouter />
    </Providers>,
  );
  afterFirstScreen();
}

void start();
