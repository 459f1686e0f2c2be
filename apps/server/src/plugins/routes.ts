import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** One registered route: its method and its path pattern as Fastify holds it (`/api/v2/user/:id`). */
export interface RouteEntry {
  method: string;
  url: string;
  /** The session the route declares (`config.session`), if it reads one. */
  session?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the server (HEAD twins of GET routes included), in registration order. */
    routeTable: readonly RouteEntry[];
    /**
     * The methods registered for a concrete path (`/api/v2/user/42`), sorted; [] for a path no route
     * has. The not-found handler answers 405 with these as `Allow` when the list is not empty.
     */
    allowedMethods: (path: string) => string[];
  }
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** A route pattern as a regular expression: `:name` is one path segment, `*` anything. */
function patternToRegExp(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : escape(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * Keeps the server's own route table (onRoute, so a route added anywhere is in it): the source of the
 * 405 answers' `Allow` header and of the fuzz test's route list. Registered before any route.
 */
/** The first path segment of a concrete path or pattern (`/api/v2/x` → `api`); '' for `/`. */
const firstSegment = (path: string) => {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
};

interface Pattern {
  regexp: RegExp;
  methods: Set<string>;
}

/**
 * Keeps the server's own route table (onRoute, so a route added anywhere is in it): the source of the
 * 405 answers' `Allow` header and of the fuzz test's route list. Registered before any route.
 * The patterns are indexed by their first segment, so that a page address (`/user/login`, answered by
 * the not-found handler) is tried against the few patterns that could match, not the whole API.
 */
async function routes(app: FastifyInstance) {
  const table: RouteEntry[] = [];
  const patterns = new Map<string, Pattern>();
  /** First segment → the patterns starting with it; '*' → those starting with a parameter or wildcard. */
  const bySegment = new Map<string, Pattern[]>();
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let entry = patterns.get(route.url);
    if (!entry) {
      entry = { regexp: patternToRegExp(route.url), methods: new Set() };
      patterns.set(route.url, entry);
      const first = firstSegment(route.url);
      const key = /[:*]/.test(first) ? '*' : first;
      bySegment.set(key, [...(bySegment.get(key) ?? []), entry]);
    }
    for (const method of methods) {
      const session = route.config?.session;
      table.push({ method, url: route.url, ...(session ? { session } : {}) });
      entry.methods.add(method);
    }
  });
  const none: Pattern[] = [];
  app.decorate('allowedMethods', (path: string) => {
    const allowed = new Set<string>();
    for (const candidates of [bySegment.get(firstSegment(path)) ?? none, bySegment.get('*') ?? none]) {
      for (const { regexp, methods } of candidates) {
        if (regexp.test(path)) for (const method of methods) allowed.add(method);
      }
    }
    return [...allowed].sort();
  });
}

export default fp(routes, { name: 'routes' });
