import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client';

/**
 * A fetch whose headers arrive at once but whose body never does: reading it ends only with the abort.
 * Resolves once the body is being read.
 */
function stalledBody(): Promise<void> {
  return new Promise((reading) => {
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => ({
      ok: true,
      status: 200,
      text: () =>
        new Promise<string>((_resolve, reject) => {
          reading();
          const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
          if (init.signal?.aborted) abort();
          init.signal?.addEventListener('abort', abort);
        }),
    }));
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('reports the timeout (not Request Error) when it fires while the body is being read', async () => {
    void stalledBody();
    const failure = await apiRequest({ path: '/api/health', timeoutMs: 50 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe('ERR_TIMEOUT');
  });

  it('passes on the caller’s own abort while the body is being read', async () => {
    const reading = stalledBody();
    const controller = new AbortController();
    const pending = apiRequest({ path: '/api/health', signal: controller.signal }).catch((e: unknown) => e);
    await reading;
    controller.abort();
    const failure = await pending;
    expect(failure).toBeInstanceOf(DOMException);
    expect((failure as DOMException).name).toBe('AbortError');
  });

  it('a body cut off by the network says it could not connect', async () => {
    vi.stubGlobal('fetch', async () => ({
      ok: true,
      status: 200,
      text: () => Promise.reject(new TypeError('terminated')),
    }));
    const failure = await apiRequest({ path: '/api/health' }).catch((e: unknown) => e);
    expect((failure as ApiError).code).toBe('ERR_NETWORK');
  });
});
