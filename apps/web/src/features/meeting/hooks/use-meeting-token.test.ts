import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { ApiError, parseRetryAfter, RetryLaterError } from '../../../lib/api-client';
import { retryStep, useMeetingToken } from './use-meeting-token';
import type { Identity } from '../lib/identity';

const TOKEN = { token: 'a.b.c', moderator: false, domain: 'meet.acme.test', room: 'abc-defg-hij' };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const notStarted = () =>
  json(401, { error_code: 'ERR_SESSION_NOT_STARTED', message: 'The meeting has not started yet.' });
const rateLimited = (retryAfter?: string) =>
  json(
    429,
    { error_code: 'ERR_RATE_LIMITED', message: 'Too many attempts.' },
    retryAfter ? { 'retry-after': retryAfter } : {},
  );

describe('what the waiting room does after a failed token request', () => {
  it('waits for the host every 5 s, for a rate limit as long as Retry-After says, and retries the network 3 times', () => {
    expect(retryStep(new ApiError(401, 'ERR_SESSION_NOT_STARTED', ''), 0)).toEqual({ kind: 'waiting', ms: 5000 });
    expect(retryStep(new RetryLaterError(429, 'ERR_RATE_LIMITED', '', 12_000), 0)).toEqual({
      kind: 'again',
      ms: 12_000,
    });
    expect(retryStep(new RetryLaterError(429, 'ERR_RATE_LIMITED', '', null), 0)).toEqual({ kind: 'again', ms: 5000 });
    expect(retryStep(new ApiError(429, 'ERR_RATE_LIMITED', ''), 9)).toEqual({ kind: 'again', ms: 5000 });
    expect(retryStep(new RetryLaterError(429, 'ERR_RATE_LIMITED', '', 3_600_000), 0)).toEqual({
      kind: 'again',
      ms: 60_000,
    });
    const network = new ApiError(0, 'ERR_NETWORK', '');
    expect([0, 1, 2, 3].map((n) => retryStep(network, n))).toEqual([
      { kind: 'again', ms: 2000 },
      { kind: 'again', ms: 4000 },
      { kind: 'again', ms: 8000 },
      { kind: 'fail' },
    ]);
    expect(retryStep(new ApiError(0, 'ERR_TIMEOUT', ''), 0).kind).toBe('again');
    expect(retryStep(new ApiError(502, 'ERR_REQUEST', ''), 0).kind).toBe('again');
    expect(retryStep(new ApiError(503, 'ERR_MEETINGS_NOT_CONFIGURED', ''), 0).kind).toBe('fail');
    expect(retryStep(new ApiError(400, 'ERR_INVITE_NOT_VALID', ''), 0).kind).toBe('fail');
    expect(retryStep(new Error('boom'), 0).kind).toBe('fail');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.UTC(2030, 0, 1, 12);
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('useMeetingToken', () => {
  const guest: Identity = { kind: 'guest', guestId: 'g1' };
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const flush = () => act(async () => void (await vi.advanceTimersByTimeAsync(0)));
  const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

  it('keeps waiting for the host through a 429 (Retry-After) and network failures, then enters', async () => {
    fetchMock
      .mockResolvedValueOnce(notStarted())
      .mockResolvedValueOnce(rateLimited('12'))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(notStarted())
      .mockResolvedValueOnce(json(200, { data: TOKEN }));
    const { result } = renderHook(() => useMeetingToken('abc-defg-hij', guest, 0, 'Dora Link'));
    await flush();
    expect(result.current.name).toBe('waiting');
    await advance(5000); // → 429 with Retry-After: 12
    expect(result.current.name).toBe('waiting');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await advance(11_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await advance(1000); // → network failure
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(result.current.name).toBe('waiting');
    await advance(2000); // → still not started
    expect(result.current.name).toBe('waiting');
    await advance(5000); // → the token
    expect(result.current.name).toBe('entering');
    await advance(2000);
    expect(result.current).toEqual({ name: 'ready', token: TOKEN });
    const [url, init] = fetchMock.mock.calls[4] as [string, RequestInit];
    expect(url).toBe('/api/v2/videoconference/guest/token');
    expect(JSON.parse(init.body as string)).toEqual({
      room_name: 'abc-defg-hij',
      guest_id: 'g1',
      display_name: 'Dora Link',
    });
  });

  it('gives up after three network retries', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const { result } = renderHook(() => useMeetingToken('abc-defg-hij', guest, 0));
    await flush();
    expect(result.current.name).toBe('connecting');
    await advance(2000 + 4000 + 8000);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(result.current.name).toBe('failed');
    expect(JSON.parse((fetchMock.mock.calls[0] as [string, RequestInit])[1].body as string)).toEqual({
      room_name: 'abc-defg-hij',
      guest_id: 'g1',
    });
  });

  it('fails at once on an invalid invite', async () => {
    fetchMock.mockResolvedValue(json(400, { error_code: 'ERR_INVITE_NOT_VALID', message: 'Invite is not valid' }));
    const user: Identity = { kind: 'user' };
    const { result } = renderHook(() => useMeetingToken('abc-defg-hij', user, 0));
    await flush();
    expect(result.current).toMatchObject({ name: 'failed', error: { code: 'ERR_INVITE_NOT_VALID' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
