import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestApp, type TestApp } from './helpers.js';

/**
 * One way to declare a signed-in route: `config: { session }`. What a person sees: every such route
 * refuses a caller without a valid session, whatever the body; what a maintainer sees: a route that
 * reads the session without declaring it fails at once, and no code outside the auth plugin reads the
 * bearer token.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SRC = join(import.meta.dirname, '../src');
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, '0123456789abcdef01234567');

describe('signed-in routes', () => {
  it('every route that declares a session refuses a missing or forged token with 401', async () => {
    const signedIn = t.app.routeTable.filter((r) => r.session && r.session !== 'optional' && r.method !== 'HEAD');
    // The account, files and meetings modules all have some: the list is not silently empty.
    expect(signedIn.length).toBeGreaterThan(40);
    for (const route of signedIn) {
      for (const authorization of [undefined, 'Bearer forged.token.value']) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers: authorization ? { authorization } : {},
          // Not a valid body for any route: the session is checked before the body is read.
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: { unexpected: true } }),
        });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(res.json().error_code, `${route.method} ${route.url}`).toBe('ERR_INVALID_ACCESS_TOKEN');
      }
    }
  });

  it('the API document names the bearer scheme and the 401 of a signed-in route, not of a public one', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
    };
    const op = (suffix: string, method: string) =>
      Object.entries(doc.paths).find(([path]) => path.endsWith(suffix))?.[1][method];
    const sessions = op('/user/sessions', 'get');
    expect(sessions?.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(sessions?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '403']));
    const login = op('/auth/login', 'post');
    expect(login).toBeDefined();
    expect(login?.security).toBeUndefined();
  });

  it('no code outside the auth plugin reads the bearer token or checks a session itself', () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !file.endsWith(join('plugins', 'auth.ts')) && !file.endsWith(join('plugins', 'metrics.ts')))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return [
          /headers\.authorization/.test(text) ? `${file}: reads the Authorization header` : null,
          /sessions\.verify\(/.test(text) ? `${file}: verifies a session token` : null,
          /app\.(authenticate|authenticateScope|optionalAuthenticate)\b/.test(text)
            ? `${file}: names an authenticate hook`
            : null,
          /if \(!request\.user\)\s*throw/.test(text) ? `${file}: checks request.user itself` : null,
        ].filter((line): line is string => line !== null);
      });
    expect(offenders).toEqual([]);
  });
});

describe('a route that reads the session without declaring it', () => {
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'suite-signed-in-'));
    app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PUBLIC_URL: 'http://localhost:8080',
        SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
        WEB_DIST: join(dataDir, 'no-web'),
      }),
      { logger: false },
    );
    app.get('/probe/undeclared', async (request) => ({ user: request.user?.id ?? null }));
    app.get('/probe/declared', { config: { session: 'optional' } }, async (request) => ({
      user: request.user?.id ?? null,
    }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails loudly instead of reading an anonymous caller', async () => {
    const res = await app.inject({ method: 'GET', url: '/probe/undeclared' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error_code).toBe('ERR_INTERNAL');
  });

  it('reads null for an anonymous caller once the route declares it', async () => {
    const res = await app.inject({ method: 'GET', url: '/probe/declared' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
  });
});
