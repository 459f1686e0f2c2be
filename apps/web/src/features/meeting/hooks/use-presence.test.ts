import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { PRESENCE_HEARTBEAT_S } from '@suite/contract/core';
import { ApiError } from '../../../lib/api-client';
import { usePresence } from './use-presence';

describe('usePresence', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));
  const beatMs = PRESENCE_HEARTBEAT_S * 1000;

  it('beats at once and every interval while joined, goes on after a failure, says goodbye on leaving', async () => {
    const beat = vi
      .fn()
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(new ApiError(503, 'ERR_SERVICE_UNAVAILABLE', 'down'))
      .mockResolvedValue(undefined);
    const leave = vi.fn();
    const { rerender } = renderHook(({ active }) => usePresence(active, { beat, leave }), {
      initialProps: { active: false },
    });
    await advance(beatMs * 4);
    expect(beat).not.toHaveBeenCalled();
    rerender({ active: true });
    await advance(0);
    expect(beat).toHaveBeenCalledTimes(1);
    await advance(beatMs * 2);
    expect(beat).toHaveBeenCalledTimes(3); // the second failed (503): the third went out anyway
    expect(leave).not.toHaveBeenCalled();
    rerender({ active: false });
    expect(leave).toHaveBeenCalledTimes(1);
    await advance(beatMs * 4);
    expect(beat).toHaveBeenCalledTimes(3);
  });

  it('says goodbye when the page goes away, and stops for good once the server refuses the proof', async () => {
    const beat = vi.fn().mockRejectedValue(new ApiError(401, 'ERR_INVALID_ACCESS_TOKEN', 'no'));
    const leave = vi.fn();
    renderHook(() => usePresence(true, { beat, leave }));
    await advance(0);
    window.dispatchEvent(new Event('pagehide'));
    expect(leave).toHaveBeenCalledTimes(1);
    await advance(beatMs * 4);
    expect(beat).toHaveBeenCalledTimes(1);
  });

  it('does nothing for a room that is not ours (a `jwt` link)', async () => {
    renderHook(() => usePresence(true, null));
    await advance(beatMs * 4);
    expect(vi.getTimerCount()).toBe(0);
  });
});
