import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Route, Router, useLocation, matchRoute, type AroundNavHandler } from 'wouter';
// wouter's own path parser, named so that the route table can be matched outside React too.
import { parse } from 'regexparam';
import { PATHS } from '../lib/paths';
import { currentLanguage, loadTexts } from '../lib/i18n';
import { markAppEntry } from '../lib/navigation';
import { preloadable, type Preloadable, type ScreenModule } from '../lib/preloadable';
import { PageFrame } from './page-frame';
import { RouteError } from './route-error';

interface AppRoute {
  /** wouter pattern; none: the not-found screen (matches anything, so last). */
  path?: string;
  /** Inside the shared frame of sign-in style screens (header, footer, language switch). */
  frame: boolean;
  screen: Preloadable;
}

/**
 * A lazily imported default export as a route's screen; the texts it shows (`namespaces`) load in
 * parallel with its code instead of after it.
 */
const route = (
  path: string | undefined,
  frame: boolean,
  load: () => Promise<ScreenModule>,
  namespaces: string[] = [],
): AppRoute => ({
  path,
  frame,
  screen: preloadable(() =>
    Promise.all([load(), ...namespaces.map((ns) => loadTexts(currentLanguage(), ns))]).then(([m]) => m),
  ),
});

/** The one route table (spec §2), first match wins. Every screen is its own chunk. */
export const ROUTES: AppRoute[] = [
  route(PATHS.root, false, () => import('../features/root-redirect/root-redirect')),
  route(PATHS.meet, false, () => import('../features/meeting/meeting-page')),
  route(PATHS.home, false, () => import('./home-page')),
  route(PATHS.user, true, () => import('./user-layout')),
  route(PATHS.auth, true, () => import('../features/auth-handoff/auth-handoff-page'), ['pages']),
  route(PATHS.clear, true, () => import('../features/clear-storage/clear-storage-page')),
  route(PATHS.loginErrorSso, true, () => import('../features/sso-error/sso-error-page')),
  route(PATHS.supportedBrowser, true, () => import('../features/supported-browser/supported-browser-page')),
  route(PATHS.guest, true, () => import('../features/guest/guest-page'), ['guest', 'errors']),
  route(PATHS.confirmInvite, true, () => import('../features/invite/invite-page'), ['invite', 'errors']),
  route(PATHS.fileDownload, true, () => import('../features/file-download/file-download-page'), ['fileDownload']),
  route(PATHS.thirdPartyCookies, true, () => import('../features/meeting/third-party-cookies-page')),
  route(undefined, true, () => import('./not-found-page')),
];

const routeFor = (pathname: string): AppRoute =>
  ROUTES.find((r) => r.path === undefined || matchRoute(parse, r.path, pathname)[0])!;

/** The first screen's code and texts, loaded before the first render (with the settings). */
export const loadFirstRoute = (): Promise<unknown> => routeFor(window.location.pathname).screen.load();

let navigation = 0;
/**
 * A navigation first loads the new screen's code and texts, then moves: the old screen stays until then
 * (no spinner between screens). A later navigation wins over one still loading.
 */
const aroundNav: AroundNavHandler = (navigate, to, options) => {
  const ticket = ++navigation;
  const { screen } = routeFor(new URL(to, window.location.href).pathname);
  if (screen.loaded) return markAppEntry(navigate, to, options);
  // A screen that fails to load still navigates: the error screen shows there.
  void screen.load().finally(() => ticket === navigation && markAppEntry(navigate, to, options));
};

/** Shown instead of everything when a screen's chunk fails to load (e.g. after a deploy) or a screen throws; a navigation clears it. */
class RouteErrorBoundary extends Component<
  { pathname: string; children: ReactNode },
  { error: unknown; pathname: string }
> {
  override state = { error: null as unknown, pathname: this.props.pathname };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { pathname: string }, state: { error: unknown; pathname: string }) {
    return props.pathname !== state.pathname ? { error: null, pathname: props.pathname } : null;
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('route error', error, info.componentStack);
  }
  override render() {
    return this.state.error ? <RouteError /> : this.props.children;
  }
}

function Routes() {
  const [pathname] = useLocation();
  const { path, frame, screen } = routeFor(pathname);
  // The same element types for every route: the frame (and its state) stays across its screens.
  const content = (
    <Route path={path}>
      <screen.Screen />
    </Route>
  );
  return (
    <RouteErrorBoundary pathname={pathname}>{frame ? <PageFrame>{content}</PageFrame> : content}</RouteErrorBoundary>
  );
}

/** The app's routes in wouter's browser-location Router. */
export function AppRouter() {
  return (
    <Router parser={parse} aroundNav={aroundNav}>
      <Routes />
    </Router>
  );
}
