import './styles/fonts.css';
import './styles/global.css';
import { createRoot } from 'react-dom/client';
import { FALLBACK_CONFIG, loadConfig } from './lib/config';
import { initI18n } from './lib/i18n';
import { configureLogger, logger } from './lib/logger';
import { Providers } from './app/providers';
import { AppRouter, loadFirstRoute } from './app/router';

async function start(): Promise<void> {
  // No waterfall: the language is set first (synchronously), then the route's screen and its texts
  // start loading together with the settings and the common texts.
  const texts = initI18n();
  const screen = loadFirstRoute().catch(() => undefined); // a failed load shows the error screen
  const [config] = await Promise.all([loadConfig().catch(() => FALLBACK_CONFIG), texts, screen]);
  document.title = config.appTitle;
  configureLogger(config);
  window.addEventListener('unhandledrejection', (e) =>
    logger.error('unhandled rejection', { reason: String(e.reason) }),
  );
  window.addEventListener('error', (e) => logger.error('uncaught error', { message: e.message }));
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <Providers config={config}>
      <AppRouter />
    </Providers>,
  );
}

void start();
