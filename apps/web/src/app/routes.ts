import { WEB_PAGES, paramsAllowed, type UserComponent, type WebPage } from '@suite/contract/core';
import { matchRoute } from 'wouter';
// wouter's own path parser, named so that the route table can be matched outside React too.
import { parse } from 'regexparam';
import { currentLanguage, loadTexts } from '../lib/i18n';
import { preloadable, type Preloadable, type ScreenModule } from '../lib/preloadable';

/**
 * The screen modules the route table (`WEB_PAGES` in the contract) names, each its own chunk, by their
 * path under src/ without the extension. A page whose module is missing here fails the build
 * (routes.test.ts checks both ways).
 */
const MODULES = import.meta.glob<ScreenModule>([
  '../features/*/*-page.tsx',
  '../features/*/*-form.tsx',
  '!../features/welcome/sso-welcome-form.tsx',
  '../features/root-redirect/root-redirect.tsx',
  './home-page.tsx',
]);
export const SCREEN_MODULES: Record<string, () => Promise<ScreenModule>> = Object.fromEntries(
  Object.entries(MODULES).map(([file, load]) => [
    file
      .replace(/^\.\.\//, '')
      .replace(/^\.\//, 'app/')
      .replace(/\.tsx$/, ''),
    load,
  ]),
);

const screens = new Map<string, Preloadable>();
/** A page's screen: its code and the texts it shows first load together (once per module). */
export function screenOf(page: Pick<WebPage, 'screen' | 'texts'>): Preloadable {
  let screen = screens.get(page.screen);
  if (!screen) {
    const load = SCREEN_MODULES[page.screen];
    if (!load) throw new Error(`no screen module ${page.screen}`);
    screen = preloadable(() =>
      Promise.all([load(), ...page.texts.map((ns) => loadTexts(currentLanguage(), ns))]).then(([m]) => m),
    );
    screens.set(page.screen, screen);
  }
  return screen;
}

/** The page an address shows (first match wins), or undefined: not found. */
export const pageFor = (pathname: string): WebPage | undefined =>
  (WEB_PAGES as readonly WebPage[]).find((p) => {
    const [matched, params] = matchRoute(parse, p.path, pathname);
    return matched && paramsAllowed(p, params as Record<string, string | undefined>);
  });

/** The `/user/*` form an address shows, if any. */
export const formFor = (pathname: string): UserComponent | undefined => pageFor(pathname)?.form;

/** The `/user/*` forms by name. */
export const FORM_PAGES = Object.fromEntries(
  (WEB_PAGES as readonly WebPage[]).filter((p) => p.form).map((p) => [p.form, p]),
) as Record<UserComponent, WebPage>;
