import type { JitsiOptions } from './jitsi-options';

/** The part of Jitsi's IFrame API (JitsiMeetExternalAPI) the room page uses. */
// Listeners take each event's documented payload; the page declares the shape it reads at each `on`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- payloads differ per event
type Listener = (payload: any) => void;

export interface JitsiApi {
  on(event: string, listener: Listener): void;
  off?(event: string, listener: Listener): void;
  executeCommand(command: string, ...args: unknown[]): void;
  isAudioMuted(): Promise<boolean>;
  isVideoMuted(): Promise<boolean>;
  /** Everyone in the conference, the local participant included (IFrame API function). */
  getNumberOfParticipants?(): number;
  /** The rooms and who is in them (IFrame API function; replaces getParticipantsInfo). */
  getRoomsInfo?(): Promise<{
    rooms: { isMainRoom?: boolean; id?: string; participants?: { id?: string; isJibri?: boolean }[] }[];
  }>;
  dispose(): void;
}
export type JitsiApiConstructor = new (domain: string, options: JitsiOptions & { noSSL?: boolean }) => JitsiApi;

declare global {
  interface Window {
    JitsiMeetExternalAPI?: JitsiApiConstructor;
  }
}

const SCRIPT_TIMEOUT_MS = 20_000;
const SCRIPT_ID = 'jitsi-external-api';

/**
 * Where the IFrame API script lives: `<origin>/external_api.js` on a self-hosted Jitsi, and under the app id
 * on 8x8 JaaS (`https://8x8.vc/<appId>/external_api.js`).
 */
export function externalApiUrl(origin: string, jaasAppId?: string | null): string {
  const base = origin.replace(/\/+$/, '');
  return jaasAppId ? `${base}/${encodeURIComponent(jaasAppId)}/external_api.js` : `${base}/external_api.js`;
}

/**
 * Loads the IFrame API script (see externalApiUrl) once. Rejects on a load error or when it does not arrive
 * within the timeout, so the page can offer Try again instead of waiting forever.
 */
export function loadExternalApi(scriptUrl: string, timeoutMs = SCRIPT_TIMEOUT_MS): Promise<JitsiApiConstructor> {
  if (window.JitsiMeetExternalAPI) return Promise.resolve(window.JitsiMeetExternalAPI);
  document.getElementById(SCRIPT_ID)?.remove();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.src = scriptUrl;
    script.async = true;
    const timer = window.setTimeout(() => fail(new Error('timeout')), timeoutMs);
    function fail(error: Error) {
      window.clearTimeout(timer);
      script.remove();
      reject(error);
    }
    script.onload = () => {
      window.clearTimeout(timer);
      if (window.JitsiMeetExternalAPI) resolve(window.JitsiMeetExternalAPI);
      else fail(new Error('no JitsiMeetExternalAPI'));
    };
    script.onerror = () => fail(new Error('load error'));
    document.head.appendChild(script);
  });
}
