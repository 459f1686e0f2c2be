import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import './ui.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** `danger`: the confirming step only; `quiet-danger`: a destructive action on a row or section. */
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet-danger' | 'link';
  block?: boolean;
  /** Shows a spinner and blocks further clicks (no double submit). */
  loading?: boolean;
  children: ReactNode;
  /** React 19 passes a ref as a prop: it reaches the <button> with the rest. */
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = 'primary',
  block,
  loading,
  disabled,
  className,
  children,
  type,
  ...rest
}: ButtonProps) {
  const classes = ['btn', `btn--${variant}`, block ? 'btn--block' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className="btn__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
