/**
 * The app's router: the part of React Router's API the app uses (route objects with lazy `Component`s
 * and `errorElement`, `RouterProvider`, `Link`, `Navigate`, `Outlet` and the location, params, search
 * and navigate hooks), in a few KiB instead of React Router's ~15 KiB gzipped on every first load.
 * `import … from 'react-router'` resolves here (vite.config.ts alias, tsconfig paths); semantics follow
 * React Router 7: a navigation first loads the new route's lazy parts, then commits in a transition
 * (the old screen stays until then); the first entry of a visit has the key 'default'; routes rank
 * static segments over dynamic ones over the splat; matching ignores case and a trailing slash.
 */
import {
  Component,
  createContext,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type ComponentType,
  type ErrorInfo,
  type MouseEvent,
  type ReactNode,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  key: string;
}

export interface RouteObject {
  path?: string;
  element?: ReactNode;
  Component?: ComponentType | null;
  errorElement?: ReactNode;
  /** Loads the route's Component (once) before the route renders. */
  lazy?: () => Promise<{ Component?: ComponentType | null }>;
  children?: RouteObject[];
}

export type Params = Record<string, string | undefined>;
export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}
export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

interface Match {
  route: RouteObject;
  params: Params;
}

export interface RouterState {
  location: Location;
  matches: Match[];
  /** false until the first location's lazy routes are in. */
  initialized: boolean;
  /** A lazy route that failed to load, and why. */
  error: { index: number; error: unknown } | null;
}

export interface Router {
  readonly state: RouterState;
  readonly routes: RouteObject[];
  navigate(to: To | number, options?: NavigateOptions): Promise<void>;
  subscribe(listener: (state: RouterState) => void): () => void;
  /** The href of a route path (the same string: no basename). */
  createHref(to: To): string;
}

// ---- matching ---------------------------------------------------------------------------------

interface Branch {
  routes: RouteObject[];
  segments: string[];
  score: number;
  order: number;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

function flatten(routes: RouteObject[], parents: RouteObject[] = [], segments: string[] = [], out: Branch[] = []) {
  for (const route of routes) {
    const chain = [...parents, route];
    const own = route.path === undefined ? [] : segmentsOf(route.path);
    const all = [...segments, ...own];
    if (route.children?.length) flatten(route.children, chain, all, out);
    if (route.path !== undefined) {
      // React Router's ranking: static 10, dynamic 3, splat -2, plus one per segment for the root.
      const score = all.reduce((s, seg) => s + (seg === '*' ? -2 : seg.startsWith(':') ? 3 : 10), all.length ? 0 : 1);
      out.push({ routes: chain, segments: all, score, order: out.length });
    }
  }
  return out;
}

function matchBranch(branch: Branch, parts: string[]): Params | null {
  const params: Params = {};
  for (let i = 0; i < branch.segments.length; i++) {
    const seg = branch.segments[i]!;
    if (seg === '*') {
      params['*'] = parts.slice(i).join('/');
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.startsWith(':')) {
      try {
        params[seg.slice(1)] = decodeURIComponent(part);
      } catch {
        params[seg.slice(1)] = part;
      }
    } else if (seg.toLowerCase() !== part.toLowerCase()) return null;
  }
  return parts.length === branch.segments.length ? params : null;
}

export function matchRoutes(routes: RouteObject[], pathname: string): Match[] | null {
  const branches = flatten(routes).sort((a, b) => b.score - a.score || a.order - b.order);
  const parts = segmentsOf(pathname);
  for (const branch of branches) {
    const params = matchBranch(branch, parts);
    if (params) return branch.routes.map((route) => ({ route, params }));
  }
  return null;
}

// ---- locations and lazy routes ----------------------------------------------------------------

const createKey = () => Math.random().toString(36).slice(2, 10);

function resolveTo(to: To, from: Location | null): Omit<Location, 'state' | 'key'> {
  if (typeof to !== 'string')
    return { pathname: to.pathname ?? from?.pathname ?? '/', search: to.search ?? '', hash: to.hash ?? '' };
  const url = new URL(to, `http://x${from?.pathname ?? '/'}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

const hrefOf = (l: Pick<Location, 'pathname' | 'search' | 'hash'>) => `${l.pathname}${l.search}${l.hash}`;

const lazyLoads = new WeakMap<RouteObject, Promise<void>>();
function loadLazy(route: RouteObject): Promise<void> {
  if (!route.lazy) return Promise.resolve();
  let loading = lazyLoads.get(route);
  if (!loading) {
    const load = route.lazy;
    loading = load().then((loaded) => {
      Object.assign(route, loaded);
      delete route.lazy;
    });
    loading.catch(() => lazyLoads.delete(route));
    lazyLoads.set(route, loading);
  }
  return loading;
}

interface HistoryDriver {
  read(): Location;
  push(location: Location, replace: boolean): void;
  go(delta: number): void;
  listen(onPop: () => void): void;
}

function createRouterWith(routes: RouteObject[], history: HistoryDriver): Router {
  const listeners = new Set<(state: RouterState) => void>();
  let state: RouterState = { location: history.read(), matches: [], initialized: false, error: null };
  let pending = 0;

  async function settle(location: Location, commit?: () => void): Promise<void> {
    const ticket = ++pending;
    const matches = matchRoutes(routes, location.pathname) ?? [];
    let error: RouterState['error'] = null;
    for (let i = 0; i < matches.length; i++) {
      try {
        await loadLazy(matches[i]!.route);
      } catch (e) {
        error = { index: i, error: e };
        break;
      }
    }
    if (ticket !== pending) return; // a later navigation won
    commit?.();
    state = { location, matches, initialized: true, error };
    for (const listener of listeners) listener(state);
  }

  history.listen(() => void settle(history.read()));
  void settle(state.location);

  return {
    get state() {
      return state;
    },
    routes,
    navigate(to, options = {}) {
      if (typeof to === 'number') {
        history.go(to);
        return Promise.resolve();
      }
      const target = resolveTo(to, state.location);
      const location: Location = { ...target, state: options.state ?? null, key: createKey() };
      // React Router replaces when the target is the current location.
      const replace = options.replace ?? hrefOf(target) === hrefOf(state.location);
      return settle(location, () => history.push(location, replace));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    createHref: (to) => (typeof to === 'string' ? to : hrefOf(resolveTo(to, state.location))),
  };
}

/** History entries keep `{usr, key}` in history.state, as React Router's do. */
export function createBrowserRouter(routes: RouteObject[]): Router {
  return createRouterWith(routes, {
    read() {
      const entry = (window.history.state ?? null) as { usr?: unknown; key?: string } | null;
      const { pathname, search, hash } = window.location;
      return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
    },
    push(location, replace) {
      const entry = { usr: location.state, key: location.key };
      if (replace) window.history.replaceState(entry, '', hrefOf(location));
      else window.history.pushState(entry, '', hrefOf(location));
    },
    go: (delta) => window.history.go(delta),
    listen: (onPop) => window.addEventListener('popstate', onPop),
  });
}

/** In-memory history (tests): the first entry has the key 'default'. */
export function createMemoryRouter(routes: RouteObject[], options: { initialEntries?: string[] } = {}): Router {
  const entries: Location[] = (options.initialEntries ?? ['/']).map((entry, i) => ({
    ...resolveTo(entry, null),
    state: null,
    key: i === 0 ? 'default' : createKey(),
  }));
  let index = entries.length - 1;
  let onPop = () => {};
  return createRouterWith(routes, {
    read: () => entries[index]!,
    push(location, replace) {
      if (replace) entries[index] = location;
      else {
        entries.splice(index + 1, entries.length, location);
        index = entries.length - 1;
      }
    },
    go(delta) {
      const next = Math.min(entries.length - 1, Math.max(0, index + delta));
      if (next === index) return;
      index = next;
      queueMicrotask(onPop);
    },
    listen: (listener) => {
      onPop = listener;
    },
  });
}

// ---- rendering --------------------------------------------------------------------------------

const RouterContext = createContext<Router | null>(null);
const LocationContext = createContext<RouterState | null>(null);
const OutletContext = createContext<ReactNode>(null);

function useRouterState(): RouterState {
  const state = useContext(LocationContext);
  if (!state) throw new Error('router hooks need a <RouterProvider>');
  return state;
}

class RouteErrorBoundary extends Component<
  { location: Location; fallback: ReactNode; children: ReactNode },
  { error: unknown; location: Location }
> {
  override state = { error: null as unknown, location: this.props.location };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(
    props: { location: Location },
    state: { error: unknown; location: Location },
  ): { error: unknown; location: Location } | null {
    // A navigation clears the error, as React Router does.
    return props.location !== state.location ? { error: null, location: props.location } : null;
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('route error', error, info.componentStack);
  }
  override render() {
    return this.state.error ? this.props.fallback : this.props.children;
  }
}

function lastIndexWhere<T>(items: T[], test: (item: T, index: number) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!, i)) return i;
  return -1;
}

function renderMatches(state: RouterState): ReactNode {
  const { matches, error, location } = state;
  let outlet: ReactNode = null;
  // Where a lazy route failed, its nearest errorElement (at or above it) stands in for that route.
  const errorAt = error
    ? lastIndexWhere(matches, (m, i) => i <= error.index && m.route.errorElement !== undefined)
    : -1;
  const last = error ? (errorAt >= 0 ? errorAt : -1) : matches.length - 1;
  if (error && errorAt < 0) throw error.error;
  for (let i = last; i >= 0; i--) {
    const { route } = matches[i]!;
    const Screen = route.Component;
    let element: ReactNode = i === errorAt ? route.errorElement : (route.element ?? (Screen ? <Screen /> : <Outlet />));
    element = <OutletContext.Provider value={outlet}>{element}</OutletContext.Provider>;
    if (route.errorElement !== undefined && i !== errorAt)
      element = (
        <RouteErrorBoundary location={location} fallback={route.errorElement}>
          {element}
        </RouteErrorBoundary>
      );
    outlet = element;
  }
  return outlet;
}

export function RouterProvider({ router }: { router: Router }) {
  const [state, setState] = useState(router.state);
  useLayoutEffect(() => {
    const unsubscribe = router.subscribe((next) => startTransition(() => setState(next)));
    if (router.state !== state) setState(router.state);
    return unsubscribe;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- subscribe once per router
  }, [router]);
  if (!state.initialized) return null;
  return (
    <RouterContext.Provider value={router}>
      <LocationContext.Provider value={state}>{renderMatches(state)}</LocationContext.Provider>
    </RouterContext.Provider>
  );
}

export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

// ---- hooks and links --------------------------------------------------------------------------

export const useLocation = (): Location => useRouterState().location;

export function useParams(): Params {
  const { matches } = useRouterState();
  return matches[matches.length - 1]?.params ?? {};
}

export function useNavigate(): (to: To | number, options?: NavigateOptions) => void {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useNavigate needs a <RouterProvider>');
  return useMemo(() => (to: To | number, options?: NavigateOptions) => void router.navigate(to, options), [router]);
}

type SearchInit = string | Record<string, string> | URLSearchParams | [string, string][];

export function useSearchParams(): [URLSearchParams, (next: SearchInit, options?: NavigateOptions) => void] {
  const { search, pathname, hash } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = (next: SearchInit, options?: NavigateOptions) => {
    const query = new URLSearchParams(next).toString();
    navigate({ pathname, search: query ? `?${query}` : '', hash }, options);
  };
  return [params, set];
}

export function Navigate({ to, replace, state }: { to: To } & NavigateOptions): null {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
}

export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const router = useContext(RouterContext);
  const href =
    router?.createHref(to) ?? (typeof to === 'string' ? to : hrefOf({ pathname: '/', search: '', hash: '', ...to }));
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const plain = event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
    if (event.defaultPrevented || !plain || (target && target !== '_self') || !router) return;
    event.preventDefault();
    void router.navigate(to, { replace, state });
  };
  return <a {...rest} href={href} target={target} onClick={handleClick} />;
}
