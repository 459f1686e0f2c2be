import { describe, expect, it } from 'vitest';
import { CODE_TTL_MS } from '@suite/contract';
import { loadConfig } from '../src/config.js';
import { signup, useWorld } from './accounts-helpers.js';

describe('CODE_TTL_SECONDS', () => {
  it('defaults to the contract lifetime and refuses nonsense', () => {
    expect(loadConfig({ DATA_DIR: '.tmp/ttl-config' }).codeTtlMs).toBe(CODE_TTL_MS);
    expect(loadConfig({ DATA_DIR: '.tmp/ttl-config', CODE_TTL_SECONDS: '30' }).codeTtlMs).toBe(30_000);
    expect(() => loadConfig({ DATA_DIR: '.tmp/ttl-config', CODE_TTL_SECONDS: '-1' })).toThrow(/CODE_TTL_SECONDS/);
  });

  it('caps the lifetime at 10 minutes (codes live at most 10 minutes)', () => {
    expect(loadConfig({ DATA_DIR: '.tmp/ttl-config', CODE_TTL_SECONDS: '600' }).codeTtlMs).toBe(600_000);
    expect(() => loadConfig({ DATA_DIR: '.tmp/ttl-config', CODE_TTL_SECONDS: '601' })).toThrow(
      /CODE_TTL_SECONDS: at most 600/,
    );
  });

  describe('on a server with CODE_TTL_SECONDS=30', () => {
    const w = useWorld({ CODE_TTL_SECONDS: '30' });

    it('stores new codes with that lifetime', async () => {
      const before = Date.now();
      await signup(w, 'ttl@contoso.com');
      const row = await w.app.db.kysely
        .selectFrom('codes')
        .select('expires_at')
        .where('email', '=', 'ttl@contoso.com')
        .executeTakeFirstOrThrow();
      expect(row.expires_at - before).toBeGreaterThanOrEqual(30_000);
      expect(row.expires_at - before).toBeLessThan(60_000);
    });
  });
});
