/** The two notes of the "you're in" chime (Hz), each this long (s), this far apart (s). */
const NOTES = [880, 1320];
const NOTE_S = 0.16;
const GAP_S = 0.18;
/** How long a suspended audio context may take to start before the chime is given up. */
const RESUME_WAIT_MS = 500;

/**
 * A short two-note chime made with Web Audio (no sound file to fetch): the guest waiting in another tab
 * hears that the host let them in. Browsers may refuse sound without a recent click (autoplay policy):
 * then nothing plays and this resolves false; the tab title still says it.
 */
export async function chime(): Promise<boolean> {
  const Context = window.AudioContext as typeof AudioContext | undefined;
  if (!Context) return false;
  const context = new Context();
  const close = () => void context.close().catch(() => undefined);
  try {
    if (context.state !== 'running') {
      await Promise.race([context.resume(), new Promise((resolve) => window.setTimeout(resolve, RESUME_WAIT_MS))]);
    }
    if (context.state !== 'running') {
      close();
      return false;
    }
    const start = context.currentTime + 0.02;
    NOTES.forEach((frequency, i) => {
      const at = start + i * GAP_S;
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = 'sine';
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_S);
      tone.connect(gain).connect(context.destination);
      tone.start(at);
      tone.stop(at + NOTE_S);
    });
    window.setTimeout(close, (NOTES.length * GAP_S + NOTE_S) * 1000 + 200);
    return true;
  } catch {
    close();
    return false;
  }
}
