/**
 * What a dialog shows: its own module, so that the provider (confirm-dialog.tsx) and the lazily loaded
 * dialog (confirm-dialog-view.tsx) both read it without importing each other. Spec §3 dialog state:
 * open flag and data (title, text, two button labels, two click handlers).
 */
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
