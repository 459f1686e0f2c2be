import { useEffect, useRef, type ReactNode } from 'react';
import './dialog.css';

/**
 * The shell of a focused task in a modal dialog (the fresh-proof prompt, the authenticator set-up): a
 * native <dialog> opened with showModal, so the browser traps the focus inside and makes the page behind
 * inert; Escape closes it through `onClose`; and when it goes, the focus returns to what opened it (the
 * dialog is removed rather than closed, which the browser would not do by itself).
 */
export function ModalDialog({
  titleId,
  describedBy,
  className,
  onClose,
  returnFocus,
  children,
}: {
  titleId: string;
  describedBy?: string;
  className?: string;
  onClose: () => void;
  /** Where the focus goes back to when the opener lost it meanwhile (a button disabled while it loaded). */
  returnFocus?: () => HTMLElement | null;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const fallback = useRef(returnFocus);
  useEffect(() => {
    // A function that finds the element when called, so the one given at opening is good at closing.
    const back = fallback.current;
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      const target = opener?.isConnected ? opener : (back?.() ?? null);
      target?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {children}
    </dialog>
  );
}
