import type { JitsiApi } from './external-api';

/**
 * Who else is in the room, for the keep-alive prompt. Attached right after the IFrame API object is built:
 * Jitsi announces the people already in the room (participantJoined) around the time it reports our own
 * videoConferenceJoined, so listeners added later miss them. On joining it also asks who is there
 * (getRoomsInfo, else getNumberOfParticipants), which covers anyone announced before the listeners existed.
 *
 * `onChange` gets the number of other people (recorders excluded); the returned function detaches.
 */
export function trackPresence(api: JitsiApi, onChange: (others: number) => void): () => void {
  const others = new Set<string>();
  /** People counted by getNumberOfParticipants whose ids we do not know. */
  let unnamed = 0;
  let localId: string | null = null;
  let active = true;
  const report = () => {
    if (active) onChange(others.size + unnamed);
  };

  const joined = (p: { id?: string } | undefined) => {
    if (!p?.id || p.id === localId) return;
    others.add(p.id);
    report();
  };
  const left = (p: { id?: string } | undefined) => {
    // Someone we knew by id, else one of those only counted.
    if (!(p?.id && others.delete(p.id)) && unnamed > 0) unnamed -= 1;
    report();
  };
  const countExisting = async () => {
    try {
      const info = await api.getRoomsInfo?.();
      const main = info?.rooms.find((r) => r.isMainRoom) ?? info?.rooms[0];
      if (main?.participants) {
        for (const p of main.participants) if (p.id && p.id !== localId && !p.isJibri) others.add(p.id);
        unnamed = 0;
        report();
        return;
      }
    } catch {
      // Older deployments: fall back to the count below.
    }
    const total = api.getNumberOfParticipants?.();
    if (typeof total === 'number') unnamed = Math.max(0, total - 1 - others.size);
    report();
  };
  const conferenceJoined = (p: { id?: string } | undefined) => {
    localId = p?.id ?? null;
    if (localId) others.delete(localId);
    report();
    void countExisting();
  };
  const conferenceLeft = () => {
    others.clear();
    unnamed = 0;
    report();
  };

  api.on('participantJoined', joined);
  api.on('participantLeft', left);
  api.on('videoConferenceJoined', conferenceJoined);
  api.on('videoConferenceLeft', conferenceLeft);
  return () => {
    active = false;
    api.off?.('participantJoined', joined);
    api.off?.('participantLeft', left);
    api.off?.('videoConferenceJoined', conferenceJoined);
    api.off?.('videoConferenceLeft', conferenceLeft);
  };
}
