import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { Route, Router, useLocation, type AroundNavHandler } from 'wouter';
import { parse } from 'regexparam';
import { markAppEntry } from '../lib/navigation';
import { FramedDeadEnd, PageNotFound } from '../lib/page-not-found';
import { preloadable, type Preloadable } from '../lib/preloadable';
import { PageFrame } from './page-frame';
import { RouteError } from './route-error';
import UserLayout from './user-layout';
import { pageFor, screenOf } from './routes';

interface AppRoute {
  /** wouter pattern; none: the not-found screen. */
  path?: string;
  /** Inside the shared frame of sign-in style screens (header, footer, language switch). */
  frame: boolean;
  screen: Preloadable;
}

/** Only an address no page matches shows it. */
const NOT_FOUND: AppRoute = { frame: true, screen: preloadable(() => import('./not-found-page')) };

/**
 * The /user layout, one screen for every /user/* form (the same element across them, so that it
 * cross-fades from one form to the next). Part of the app's first file (vite.config.ts: every /user
 * screen needs it, and one file compresses better than two); a form's route loads the form.
 */
const userForm = (form: Preloadable): Preloadable => ({
  Screen: UserLayout,
  load: () => form.load(),
  get loaded() {
    return form.loaded;
  },
});

/** The route of an address, from the one route table (`WEB_PAGES` in the contract). */
export function routeFor(pathname: string): AppRoute {
  const page = pageFor(pathname);
  if (!page) return NOT_FOUND;
  const screen = screenOf(page);
  return { path: page.path, frame: page.frame, screen: page.form ? userForm(screen) : screen };
}

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

/**
 * Shown instead of everything when a screen's chunk fails to load (e.g. after a deploy) or a screen throws; a
 * navigation clears it. A screen that throws PageNotFound (its API said 404) gets the not-found page instead;
 * one that throws FramedDeadEnd, the page it carries inside the frame.
 */
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
    if (error instanceof PageNotFound || error instanceof FramedDeadEnd) return;
    console.error('route error', error, info.componentStack);
  }
  override render() {
    if (this.state.error instanceof PageNotFound) {
      return (
        <PageFrame>
          <NOT_FOUND.screen.Screen />
        </PageFrame>
      );
    }
    if (this.state.error instanceof FramedDeadEnd) return <PageFrame>{this.state.error.page}</PageFrame>;
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

/** Marks the document once the app has rendered or hydrated its first screen (tests and the bench wait for it). */
function Rendered() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}

/**
 * The app's routes in wouter's browser-location Router. `ssrPath` and `ssrSearch`: the address a page
 * was prerendered for (at build, and again while it hydrates: the first render matches the HTML, then
 * the real address and query apply).
 */
export function AppRouter(props: { ssrPath?: string; ssrSearch?: string }) {
  return (
    <Router parser={parse} aroundNav={aroundNav} ssrPath={props.ssrPath} ssrSearch={props.ssrSearch}>
      <Routes />
      <Rendered />
    </Router>
  );
}
