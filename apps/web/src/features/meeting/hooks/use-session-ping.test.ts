import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { FAILED_PING_RETRY_MS, useSessionPing } from './use-session-ping';

describe('useSessionPing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

  it('pings while joined at the interval the server gives, retries sooner after a failure, stops on leaving', async () => {
    const ping = vi
      .fn()
      .mockResolvedValueOnce({ status: 'started', ping_interval_s: 120 })
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ status: 'started', ping_interval_s: 120 });
    const { rerender } = renderHook(({ active }) => useSessionPing(active, ping), { initialProps: { active: false } });
    await advance(600_000);
    expect(ping).not.toHaveBeenCalled();
    rerender({ active: true });
    await advance(0);
    expect(ping).toHaveBeenCalledTimes(1);
    await advance(119_000);
    expect(ping).toHaveBeenCalledTimes(1);
    await advance(1000);
    expect(ping).toHaveBeenCalledTimes(2); // fails
    await advance(FAILED_PING_RETRY_MS);
    expect(ping).toHaveBeenCalledTimes(3);
    rerender({ active: false });
    await advance(600_000);
    expect(ping).toHaveBeenCalledTimes(3);
  });

  it('does nothing without a ping (a `jwt` link)', async () => {
    renderHook(() => useSessionPing(true, null));
    await advance(600_000);
    expect(vi.getTimerCount()).toBe(0); // no ping loop was scheduled
  });
});
