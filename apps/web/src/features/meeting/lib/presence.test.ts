import { describe, expect, it, vi } from 'vitest';
import type { JitsiApi } from './external-api';
import { trackPresence } from './presence';

/** A minimal IFrame API object: events fired by the test, getRoomsInfo / getNumberOfParticipants as given. */
function fakeApi(extra: Partial<JitsiApi> = {}) {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const api: JitsiApi = {
    on: (e, fn) => void (listeners.get(e) ?? listeners.set(e, new Set()).get(e)!).add(fn),
    off: (e, fn) => void listeners.get(e)?.delete(fn),
    executeCommand: () => undefined,
    isAudioMuted: () => Promise.resolve(false),
    isVideoMuted: () => Promise.resolve(false),
    dispose: () => undefined,
    ...extra,
  };
  const emit = (e: string, p?: unknown) => listeners.get(e)?.forEach((fn) => fn(p));
  return { api, emit, count: (e: string) => listeners.get(e)?.size ?? 0 };
}

describe('presence for the keep-alive prompt', () => {
  it('counts people announced before our own join (listeners attached at construction)', () => {
    const { api, emit } = fakeApi();
    const onChange = vi.fn();
    trackPresence(api, onChange);
    emit('participantJoined', { id: 'p1' });
    emit('participantJoined', { id: 'p2' });
    emit('videoConferenceJoined', { id: 'me' });
    expect(onChange).toHaveBeenLastCalledWith(2);
    emit('participantLeft', { id: 'p1' });
    emit('participantLeft', { id: 'p2' });
    expect(onChange).toHaveBeenLastCalledWith(0);
  });

  it('asks getRoomsInfo on joining: people nobody announced count, we and the recorder do not', async () => {
    const { api, emit } = fakeApi({
      getRoomsInfo: () =>
        Promise.resolve({
          rooms: [
            { isMainRoom: false, participants: [{ id: 'breakout' }] },
            { isMainRoom: true, participants: [{ id: 'me' }, { id: 'early' }, { id: 'jibri', isJibri: true }] },
          ],
        }),
    });
    const onChange = vi.fn();
    trackPresence(api, onChange);
    emit('videoConferenceJoined', { id: 'me' });
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith(1));
    emit('participantLeft', { id: 'early' });
    expect(onChange).toHaveBeenLastCalledWith(0);
  });

  it('falls back to getNumberOfParticipants (which counts us) on older deployments', async () => {
    const { api, emit } = fakeApi({
      getRoomsInfo: () => Promise.reject(new Error('unsupported')),
      getNumberOfParticipants: () => 3,
    });
    const onChange = vi.fn();
    trackPresence(api, onChange);
    emit('videoConferenceJoined', { id: 'me' });
    await vi.waitFor(() => expect(onChange).toHaveBeenLastCalledWith(2));
    emit('participantLeft', { id: 'unknown-1' });
    emit('participantLeft', { id: 'unknown-2' });
    expect(onChange).toHaveBeenLastCalledWith(0);
  });

  it('stops reporting and detaches', () => {
    const { api, emit, count } = fakeApi();
    const onChange = vi.fn();
    const detach = trackPresence(api, onChange);
    detach();
    emit('participantJoined', { id: 'p1' });
    expect(onChange).not.toHaveBeenCalled();
    expect(count('participantJoined')).toBe(0);
  });
});
