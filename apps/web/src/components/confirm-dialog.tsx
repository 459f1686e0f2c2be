import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Button } from './button';
import './ui.css';
import { WithAddress } from './address';

/** Spec §3 dialog state: open flag and data (title, text, two button labels, two click handlers). */
export interface DialogData {
  title: string;
  text: string;
  /** An e-mail address inside `text`: shown unbroken (components/address.tsx). */
  address?: string;
  primaryLabel?: string;
  secondaryLabel?: string;
  onPrimary?: () => void;
  onSecondary?: () => void;
  variant?: 'default' | 'danger';
}

interface DialogApi {
  openDialog: (data: DialogData) => void;
  closeDialog: () => void;
  /** Resolves true for the primary button, false for the secondary one or Escape. */
  confirm: (data: Omit<DialogData, 'onPrimary' | 'onSecondary'>) => Promise<boolean>;
}

const DialogContext = createContext<DialogApi | null>(null);

export function DialogProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ open: boolean; data: DialogData | null }>({ open: false, data: null });
  const closeDialog = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  const openDialog = useCallback((data: DialogData) => setState({ open: true, data }), []);
  const confirm = useCallback(
    (data: Omit<DialogData, 'onPrimary' | 'onSecondary'>) =>
      new Promise<boolean>((resolve) =>
        setState({ open: true, data: { ...data, onPrimary: () => resolve(true), onSecondary: () => resolve(false) } }),
      ),
    [],
  );
  const api = useMemo(() => ({ openDialog, closeDialog, confirm }), [openDialog, closeDialog, confirm]);
  return (
    <DialogContext.Provider value={api}>
      {children}
      <ConfirmDialog open={state.open} data={state.data} onClose={closeDialog} />
    </DialogContext.Provider>
  );
}

export function useDialog(): DialogApi {
  const api = useContext(DialogContext);
  if (!api) throw new Error('useDialog outside DialogProvider');
  return api;
}

function ConfirmDialog({ open, data, onClose }: { open: boolean; data: DialogData | null; onClose: () => void }) {
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
