import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A live microphone level around `children` (the microphone toggle): a Web Audio AnalyserNode on the
 * preview stream's audio track, read once per animation frame and written straight to the DOM as the CSS
 * variable --level (the toggle's glyph fills with it, a ring grows around it) and as the value of a meter
 * for assistive technology (no React render per frame). Flat while muted.
 */
export function MicLevel({
  stream,
  active,
  label,
  children,
}: {
  stream: MediaStream | null;
  active: boolean;
  label: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLSpanElement>(null);
  const meter = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const el = ref.current;
    const show = (level: number) => {
      el?.style.setProperty('--level', level.toFixed(3));
      meter.current?.setAttribute('aria-valuenow', String(Math.round(level * 100)));
    };
    show(0);
    const track = stream?.getAudioTracks()[0];
    const Ctx = window.AudioContext as typeof AudioContext | undefined;
    if (!active || !stream || !track || !Ctx) return;
    const context = new Ctx();
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    const source = context.createMediaStreamSource(new MediaStream([track]));
    source.connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    let frame = 0;
    let smooth = 0;
    const tick = () => {
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += ((s - 128) / 128) ** 2;
      // RMS of speech sits around 0.02–0.2: scale so that normal speaking fills most of the meter.
      const level = Math.min(1, Math.sqrt(sum / samples.length) * 4);
      smooth = level > smooth ? level : smooth * 0.85 + level * 0.15;
      show(smooth);
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    // A context made before any click may start suspended (autoplay policy): the first interaction resumes it.
    const resume = () => void context.resume().catch(() => undefined);
    resume();
    window.addEventListener('pointerdown', resume, { once: true });
    window.addEventListener('keydown', resume, { once: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointerdown', resume);
      window.removeEventListener('keydown', resume);
      source.disconnect();
      void context.close().catch(() => undefined);
      show(0);
    };
  }, [stream, active]);

  return (
    <span ref={ref} className="meet-mic">
      {children}
      <span
        ref={meter}
        className="meet-mic__ring"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={0}
        data-testid="mic-level"
      />
    </span>
  );
}
