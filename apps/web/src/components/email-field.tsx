import { forwardRef, useState } from 'react';
import { isEmailShape } from '@suite/contract/core';
import { TextField, type TextFieldProps } from './text-field';

export interface EmailFieldProps extends Omit<TextFieldProps, 'type' | 'onChange'> {
  value: string;
  /** Called on change and again on blur (the trimmed value is checked then). */
  onChange: (event: { target: HTMLInputElement }) => void;
  /** Message shown when the shape is wrong (after blur). */
  invalidMessage: string;
}

/** Spec §5: valid if empty or of e-mail shape; invalid puts the field in error; the value is passed on change and blur. */
export const EmailField = forwardRef<HTMLInputElement, EmailFieldProps>(function EmailField(
  { value, onChange, invalidMessage, error, onBlur, ...rest },
  ref,
) {
  const [touched, setTouched] = useState(false);
  const shapeError = touched && !isEmailShape(value.trim()) ? invalidMessage : null;
  return (
    <TextField
      ref={ref}
      type="email"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      error={error ?? shapeError}
      onChange={onChange}
      onBlur={(e) => {
        setTouched(true);
        onChange(e);
        onBlur?.(e);
      }}
      {...rest}
    />
  );
});
