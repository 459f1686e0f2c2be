import {
  API_PREFIX,
  LOBBY_API,
  LobbyDecisionResponseSchema,
  LobbyRequestListSchema,
  LobbyStatusSchema,
  apiPath,
  type LobbyRequestList,
  type LobbyStatus,
} from '@suite/contract';
import { apiRequest } from '../../../lib/api-client';
import { currentToken } from '../../../lib/session';

/** DELETE …/lobby/me: the waiting person cancels (the lobby cookie says which request). */
export function cancelLobbyRequest(roomName: string): Promise<unknown> {
  return apiRequest({ method: 'DELETE', path: LOBBY_API.mine, params: { id: roomName } });
}

/**
 * The waiting person's decision, pushed (Server-Sent Events; the HttpOnly lobby cookie binds it, so the
 * browser's EventSource, which reconnects by itself, is enough). Returns the closer.
 */
export function watchLobbyStatus(roomName: string, onStatus: (status: LobbyStatus) => void): () => void {
  const source = new EventSource(`${API_PREFIX}${apiPath(LOBBY_API.mineEvents, { id: roomName })}`);
  source.addEventListener('status', (event) => {
    const parsed = LobbyStatusSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
    if (parsed.success) onStatus(parsed.data);
  });
  return () => source.close();
}

/**
 * The host's and co-hosts' request list, pushed. EventSource sends no Authorization header, so the
 * stream is read with fetch; it is opened again after a drop (a growing pause, at most 10 s).
 */
export function watchLobbyRequests(roomName: string, onList: (list: LobbyRequestList) => void): () => void {
  const controller = new AbortController();
  let pause = 500;
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const token = currentToken();
        const response = await fetch(`${API_PREFIX}${apiPath(LOBBY_API.requestEvents, { id: roomName })}`, {
          headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          signal: controller.signal,
        });
        // Not (or no longer) an admitter: nothing to show, nothing to retry.
        if (response.status === 404 || response.status === 401) return;
        if (!response.ok || !response.body) throw new Error(`lobby stream ${response.status}`);
        pause = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (!data) continue;
            const parsed = LobbyRequestListSchema.safeParse(JSON.parse(data.slice(6)));
            if (parsed.success) onList(parsed.data);
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      await new Promise((resolve) => window.setTimeout(resolve, pause));
      pause = Math.min(10_000, pause * 2);
    }
  };
  void run();
  return () => controller.abort();
}

export function decideLobbyRequest(roomName: string, requestId: string, decision: 'admit' | 'deny') {
  return apiRequest({
    method: 'POST',
    path: decision === 'admit' ? LOBBY_API.admit : LOBBY_API.deny,
    params: { id: roomName, requestId },
    auth: true,
    schema: LobbyDecisionResponseSchema,
  });
}

export function admitEveryone(roomName: string) {
  return apiRequest({
    method: 'POST',
    path: LOBBY_API.admitAll,
    params: { id: roomName },
    auth: true,
    schema: LobbyDecisionResponseSchema,
  });
}
