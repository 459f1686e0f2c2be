import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../components/testing';
import { ApiError } from './api-client';
import { passkeySignIn } from './webauthn';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
const bytes = new Uint8Array([1, 2, 3, 4]).buffer;

beforeEach(() => {
  // A browser that offers passkeys in autofill, and an e-mail field that asks for them.
  vi.stubGlobal(
    'PublicKeyCredential',
    class {
      static isConditionalMediationAvailable = () => Promise.resolve(true);
    },
  );
  const field = document.createElement('input');
  field.setAttribute('autocomplete', 'username webauthn');
  document.body.append(field);
  // The person picks a passkey: the browser gives its signed answer.
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      get: () =>
        Promise.resolve({
          id: 'AQIDBA',
          rawId: bytes,
          type: 'public-key',
          authenticatorAttachment: 'platform',
          response: { authenticatorData: bytes, clientDataJSON: bytes, signature: bytes, userHandle: null },
          getClientExtensionResults: () => ({}),
        }),
    },
  });
});

afterEach(async () => {
  vi.unstubAllGlobals();
  document.body.replaceChildren();
  await server?.close();
  server = null;
});

const busy = { status: 503, body: { error_code: 'ERR_SERVICE_UNAVAILABLE', message: 'busy' } };
const options = {
  status: 200,
  body: { options: { challenge: 'AQIDBA', rpId: 'localhost', userVerification: 'required' } },
};

describe('passkey sign-in on the login screen', () => {
  it('autofill that cannot start (its options refused by a busy server) says nothing; the button says why', async () => {
    server = await serveApi(() => busy);
    expect(await passkeySignIn(true)).toBeNull();
    const shown = await passkeySignIn(false);
    expect(shown).toBeInstanceOf(ApiError);
    expect((shown as ApiError).code).toBe('ERR_SERVICE_UNAVAILABLE');
  });

  it('autofill says why the server refused a passkey the person picked', async () => {
    server = await serveApi((req) =>
      req.url === '/api/auth/passkey/options'
        ? options
        : { status: 401, body: { error_code: 'ERR_COULD_NOT_AUTHENTICATE', message: 'refused' } },
    );
    const shown = await passkeySignIn(true);
    expect(shown).toBeInstanceOf(ApiError);
    expect((shown as ApiError).code).toBe('ERR_COULD_NOT_AUTHENTICATE');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/auth/passkey/options',
      'POST /api/auth/passkey',
    ]);
  });
});
