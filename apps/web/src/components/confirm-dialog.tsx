import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { DialogData } from './dialog-data';
import './ui.css';

export type { DialogData };

const ConfirmDialog = lazy(() => import('./confirm-dialog-view'));

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
      {state.data ? (
        <Suspense fallback={null}>
          <ConfirmDialog open={state.open} data={state.data} onClose={closeDialog} />
        </Suspense>
      ) : null}
    </DialogContext.Provider>
  );
}

export function useDialog(): DialogApi {
  const api = useContext(DialogContext);
  if (!api) throw new Error('useDialog outside DialogProvider');
  return api;
}
