import { useEffect, useId, useRef } from 'react';
import { Button } from './button';
import { WithAddress } from './address';
import type { DialogData } from './dialog-data';
import './dialog.css';
import './destructive.css';

/** The dialog itself: loaded with the first dialog a screen opens, never in an entry screen's first load. */
export default function ConfirmDialog({
  open,
  data,
  onClose,
}: {
  open: boolean;
  data: DialogData | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first button (the safe one); a non-destructive primary action takes the focus instead.
      dialog.querySelector<HTMLButtonElement>('[data-primary]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const press = (handler?: () => void) => () => {
    onClose();
    handler?.();
  };
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => {
        e.preventDefault();
        press(data?.onSecondary)();
      }}
    >
      {data ? (
        <>
          <h2 id={titleId}>{data.title}</h2>
          <p id={textId}>{data.address ? <WithAddress text={data.text} email={data.address} /> : data.text}</p>
          <div className="dialog__actions">
            {data.secondaryLabel ? (
              <Button variant="secondary" onClick={press(data.onSecondary)}>
                {data.secondaryLabel}
              </Button>
            ) : null}
            {data.primaryLabel ? (
              <Button
                variant={data.variant === 'danger' ? 'danger' : 'primary'}
                onClick={press(data.onPrimary)}
                data-primary={data.variant === 'danger' ? undefined : true}
              >
                {data.primaryLabel}
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
    </dialog>
  );
}
