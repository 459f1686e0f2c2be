import { describe, expect, it } from 'vitest';
import { SESSION_METHODS } from '@suite/contract';
import { call, registered, useWorld } from './accounts-helpers.js';

/** The sessions panel names how each session was signed in, from the contract's one list. */
const w = useWorld();

describe('session methods', () => {
  it('lists a session with its method, and one stored by another version without a method', async () => {
    const { token } = await registered(w, 'methods@acme-corp.test');
    const login = await call(w.app, {
      method: 'POST',
      url: '/auth/login',
      body: { login: 'methods@acme-corp.test', password: 'Correct-Horse-42' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const before = await call(w.app, { method: 'GET', url: '/v2/user/sessions', token });
    expect((before.json().data as { method?: string }[]).map((s) => s.method)).toEqual(['password', 'password']);
    const other = (before.json().data as { _id: string; current: boolean }[]).find((s) => !s.current)!;
    // A method this version does not name (written by a newer one during a rolling upgrade).
    await w.app.db.kysely
      .updateTable('sessions')
      .set({ method: 'carrier-pigeon' })
      .where('id', '=', other._id)
      .execute();
    const res = await call(w.app, { method: 'GET', url: '/v2/user/sessions', token });
    expect(res.statusCode, res.body).toBe(200);
    const methods = (res.json().data as { method?: string }[]).map((s) => s.method);
    expect(methods).toEqual(expect.arrayContaining(['password', undefined]));
    expect(methods).toHaveLength(2);
    expect(SESSION_METHODS).toContain('password');
  });
});
