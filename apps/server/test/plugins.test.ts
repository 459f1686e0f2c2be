import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';
import captchaPlugin from '../src/plugins/captcha.js';
import throttlePlugin from '../src/plugins/throttle.js';
import staticPlugin from '../src/plugins/static.js';

/** What fastify-plugin keeps on a wrapped plugin: its name and what it needs registered before it. */
interface PluginMeta {
  name?: string;
  dependencies?: string[];
  decorators?: { fastify?: string[] };
}
const metaOf = (plugin: unknown): PluginMeta | undefined =>
  (plugin as Record<symbol, PluginMeta> | undefined)?.[Symbol.for('plugin-meta')];

const PLUGINS = join(import.meta.dirname, '../src/plugins');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('server plugins', () => {
  it('every fastify-plugin wrapper is named, and the server has registered each by that name', async () => {
    const wrapped: { file: string; meta: PluginMeta }[] = [];
    for (const file of readdirSync(PLUGINS).filter((name) => name.endsWith('.ts'))) {
      const module = (await import(join(PLUGINS, file))) as { default?: unknown };
      const meta = metaOf(module.default);
      if (meta) wrapped.push({ file, meta });
    }
    const jobs = (await import('../src/jobs/index.js')).default;
    wrapped.push({ file: 'jobs/index.ts', meta: metaOf(jobs)! });
    expect(wrapped.length).toBeGreaterThanOrEqual(15);
    for (const { file, meta } of wrapped) {
      expect(meta.name, file).toMatch(/^[a-z-]+$/);
      expect(t.app.hasPlugin(meta.name!), `${meta.name} registered`).toBe(true);
      // What a plugin depends on is registered too (under that very name: a typo would fail here).
      for (const dependency of meta.dependencies ?? []) expect(t.app.hasPlugin(dependency), dependency).toBe(true);
    }
    const names = wrapped.map(({ meta }) => meta.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a plugin registered before what it uses fails at start, naming the missing plugin', async () => {
    const app = Fastify({ logger: false });
    // The throttle reads accounts, counters and the captcha: without the database it must not start.
    await app.register(captchaPlugin, { config: t.config });
    await expect(
      app.register(throttlePlugin, { scale: 1, deviceKeys: t.config.keys.device, secureCookie: false }),
    ).rejects.toThrow("The dependency 'db' of plugin 'throttle' is not registered");
    await app.close().catch(() => undefined);
  });

  it('the static pages without the route table fail at start, naming it', async () => {
    const app = Fastify({ logger: false });
    await expect(
      app.register(staticPlugin, {
        webDist: t.config.webDist,
        settings: { appTitle: 'x', hideHeader: false, hideFooter: false, publicSignup: true },
      }),
    ).rejects.toThrow("The dependency 'routes' of plugin 'static' is not registered");
    await app.close().catch(() => undefined);
  });
});
