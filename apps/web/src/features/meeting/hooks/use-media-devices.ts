import { useCallback, useEffect, useRef, useState } from 'react';

export type MediaStatus = 'asking' | 'ready' | 'noDevices' | 'denied' | 'error';

export interface DeviceLists {
  audioInput: MediaDeviceInfo[];
  audioOutput: MediaDeviceInfo[];
  videoInput: MediaDeviceInfo[];
}

const EMPTY: DeviceLists = { audioInput: [], audioOutput: [], videoInput: [] };

/** getUserMedia error names → what the setup screen says (spec §8: check permissions / reload hint). */
function statusOf(error: unknown): MediaStatus {
  const name = (error as { name?: string } | null)?.name ?? '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError')
    return 'noDevices';
  return 'error';
}

async function openStream(videoId: string | null, audioId: string | null): Promise<MediaStream> {
  const md = navigator.mediaDevices;
  const video = videoId ? { deviceId: { exact: videoId } } : true;
  const audio = audioId ? { deviceId: { exact: audioId } } : true;
  try {
    return await md.getUserMedia({ audio, video });
  } catch (error) {
    // A missing camera or microphone alone should not make the user a spectator: try each on its own.
    if (statusOf(error) !== 'noDevices') throw error;
    try {
      return await md.getUserMedia({ audio });
    } catch {
      return md.getUserMedia({ video });
    }
  }
}

/**
 * Asks for the microphone and camera once, lists the devices with their labels and keeps a preview stream
 * of the chosen camera. The stream is stopped on unmount so that Jitsi can take the devices.
 */
export function useMediaDevices() {
  const [status, setStatus] = useState<MediaStatus>('asking');
  const [devices, setDevices] = useState<DeviceLists>(EMPTY);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const streamRef = useRef<MediaStream | null>(null);

  const replace = useCallback((next: MediaStream | null) => {
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = next;
    setStream(next);
  }, []);

  const start = useCallback(
    async (videoId: string | null = null, audioId: string | null = null) => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setStatus('noDevices');
        return;
      }
      try {
        const next = await openStream(videoId, audioId);
        replace(next);
        const all = await navigator.mediaDevices.enumerateDevices();
        const lists: DeviceLists = {
          audioInput: all.filter((d) => d.kind === 'audioinput' && d.deviceId),
          audioOutput: all.filter((d) => d.kind === 'audiooutput' && d.deviceId),
          videoInput: all.filter((d) => d.kind === 'videoinput' && d.deviceId),
        };
        setDevices(lists);
        setStatus(lists.audioInput.length || lists.videoInput.length ? 'ready' : 'noDevices');
      } catch (error) {
        replace(null);
        setStatus(statusOf(error));
      }
    },
    [replace],
  );

  useEffect(() => {
    void start();
    return () => {
      streamRef.current?.getTracks().forEach((t) => t.stop());
      streamRef.current = null;
    };
  }, [start]);

  return { status, devices, stream, restart: start, stop: () => replace(null) };
}
