import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** One registered route: its method and its path pattern as Fastify holds it (`/api/v2/user/:id`). */
export interface RouteEntry {
  method: string;
  url: string;
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
export function patternToRegExp(url: string): RegExp {
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
export default fp(async function routes(app: FastifyInstance) {
  const table: RouteEntry[] = [];
  const patterns = new Map<string, { regexp: RegExp; methods: Set<string> }>();
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let entry = patterns.get(route.url);
    if (!entry) {
      entry = { regexp: patternToRegExp(route.url), methods: new Set() };
      patterns.set(route.url, entry);
    }
    for (const method of methods) {
      table.push({ method, url: route.url });
      entry.methods.add(method);
    }
  });
  app.decorate('allowedMethods', (path: string) => {
    const allowed = new Set<string>();
    for (const { regexp, methods } of patterns.values()) {
      if (regexp.test(path)) for (const method of methods) allowed.add(method);
    }
    return [...allowed].sort();
  });
});
