/**
 * The build's server-side entry (vite build --ssr, then build/prerender.mjs): renders an entry screen
 * in one language to HTML with React's own `prerender` (react-dom/static, which waits for the lazy
 * screen and its texts), as main.tsx then hydrates it: the same providers, the settings the page is
 * prerendered with, wouter's `ssrPath`.
 */
import { prerender } from 'react-dom/static';
import { LANGUAGES, LANGUAGE_TAGS, WEB_PAGES, type Language } from '@suite/contract/core';
import { PRERENDER_CONFIG, PRERENDER_KEYS } from './lib/config';
import { initI18n } from './lib/i18n';
import { Providers } from './app/providers';
import { AppRouter, routeFor } from './app/router';

export { LANGUAGES, LANGUAGE_TAGS, WEB_PAGES, PRERENDER_CONFIG, PRERENDER_KEYS };

export async function render(path: string, language: Language): Promise<string> {
  await initI18n(language);
  await routeFor(path).screen.load();
  const { prelude } = await prerender(
    <Providers config={PRERENDER_CONFIG}>
      <AppRouter ssrPath={path} ssrSearch="" />
    </Providers>,
  );
  return new Response(prelude).text();
}
