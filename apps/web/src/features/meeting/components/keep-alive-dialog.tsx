import { useEffect, useRef } from 'react';
import { KEEP_ALIVE_COUNTDOWN_S } from '@suite/contract/core';
import { useTranslation } from '../../../lib/i18n-react';
import { Button } from '../../../components/button';
import '../../../components/dialog.css';

/** The seconds at which a screen reader hears the time left (politely), instead of every second. */
const ANNOUNCE_AT = [5, 10, 20, KEEP_ALIVE_COUNTDOWN_S];
const RING_R = 26;
const RING_LENGTH = 2 * Math.PI * RING_R;

/** The time left as a ring that empties (SVG; it steps instead of gliding when motion is reduced). */
function CountdownRing({ secondsLeft }: { secondsLeft: number }) {
  const used = 1 - secondsLeft / KEEP_ALIVE_COUNTDOWN_S;
  return (
    <svg className="meet-ring" width="64" height="64" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle className="meet-ring__track" cx="32" cy="32" r={RING_R} />
      <circle
        className="meet-ring__left"
        cx="32"
        cy="32"
        r={RING_R}
        strokeDasharray={RING_LENGTH}
        strokeDashoffset={RING_LENGTH * used}
        transform="rotate(-90 32 32)"
      />
    </svg>
  );
}

/**
 * "Keep the meeting open?" with "The meeting closes in 28 s" and a ring; the page disconnects when the
 * seconds run out. The focus is on the safe choice (a reflexive Enter keeps the meeting).
 */
export function KeepAliveDialog({
  secondsLeft,
  onKeep,
  onLeave,
}: {
  secondsLeft: number | null;
  onKeep: () => void;
  onLeave: () => void;
}) {
  const { t } = useTranslation('meeting');
  const ref = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const open = secondsLeft !== null;
  // The spoken value changes only when the seconds reach one of ANNOUNCE_AT.
  const announced = ANNOUNCE_AT.find((at) => at >= (secondsLeft ?? KEEP_ALIVE_COUNTDOWN_S)) ?? KEEP_ALIVE_COUNTDOWN_S;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first button, "Leave now": a reflexive Enter would disconnect. The safe
      // choice takes the focus.
      keep.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      role="alertdialog"
      aria-labelledby="keep-alive-title"
      aria-describedby="keep-alive-text keep-alive-live"
      onCancel={(e) => {
        e.preventDefault();
        onKeep();
      }}
    >
      {open ? (
        <>
          <h2 id="keep-alive-title">{t('keepAlive.title')}</h2>
          <p id="keep-alive-text">{t('keepAlive.text')}</p>
          <div className="meet-countdown-row">
            <CountdownRing secondsLeft={secondsLeft} />
            {/* Seen every second; heard (below) when the dialog opens and at 20, 10 and 5 s. */}
            <p className="meet-countdown" data-testid="keep-alive-countdown" aria-hidden="true">
              {t('keepAlive.closesIn', { seconds: secondsLeft })}
            </p>
          </div>
          <p id="keep-alive-live" className="visually-hidden" aria-live="polite" aria-atomic="true">
            {t('keepAlive.closesIn', { seconds: announced })}
          </p>
          <div className="dialog__actions">
            <Button variant="secondary" onClick={onLeave}>
              {t('keepAlive.leave')}
            </Button>
            <Button ref={keep} onClick={onKeep}>
              {t('keepAlive.keep')}
            </Button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
