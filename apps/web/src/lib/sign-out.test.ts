import { afterEach, describe, expect, it } from 'vitest';
import { fakeSessionToken, serveApi } from '../components/testing';
import { carriedAddress } from './carried-address';
import { signOut, signOutEverywhere } from './sign-out';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  sessionStorage.clear();
  localStorage.clear();
});

/** Ada signed in at this tab after typing her address on an entry form. */
function signedIn(): void {
  localStorage.setItem('authorization', fakeSessionToken());
  carriedAddress.set('ada@contoso.com');
  expect(carriedAddress.get()).toBe('ada@contoso.com');
}

describe('signing out forgets the address carried between entry forms', () => {
  it('sign out: the next person at this tab finds no address typed in', async () => {
    server = await serveApi(() => ({ status: 200, body: {} }));
    signedIn();
    await signOut();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/auth/logout']);
    expect(carriedAddress.get()).toBe('');
    expect(localStorage.getItem('authorization')).toBeNull();
  });

  it('sign out while the server cannot be reached still forgets it', async () => {
    server = await serveApi(() => ({ status: 200, body: {} }));
    await server.close();
    server = null;
    signedIn();
    await signOut();
    expect(carriedAddress.get()).toBe('');
  });

  it('sign out of all devices forgets it too', async () => {
    server = await serveApi(() => ({ status: 200, body: {} }));
    signedIn();
    await signOutEverywhere();
    expect(carriedAddress.get()).toBe('');
    expect(localStorage.getItem('authorization')).toBeNull();
  });
});
