import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { Button } from '../../../components/button';

/** "Keep the conference open?" with the seconds left; the page disconnects when they run out. */
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
      aria-describedby="keep-alive-text"
      onCancel={(e) => {
        e.preventDefault();
        onKeep();
      }}
    >
      {open ? (
        <>
          <h2 id="keep-alive-title">{t('keepAlive.title')}</h2>
          <p id="keep-alive-text">{t('keepAlive.text')}</p>
          <p className="meet-countdown-row">
            {t('keepAlive.secondsLeft')}{' '}
            <strong className="meet-countdown" data-testid="keep-alive-countdown">
              {secondsLeft}
            </strong>
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
