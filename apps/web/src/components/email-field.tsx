import { forwardRef, useState } from 'react';
import { isEmailShape } from '@suite/contract/core';
import { carriedAddress } from '../lib/carried-address';
import { TextField, type TextFieldProps } from './text-field';

export interface EmailFieldProps extends Omit<TextFieldProps, 'type' | 'onChange'> {
  value: string;
  /** Called on change, and on blur when the browser changed the value without a change event (autofill). */
  onChange: (event: { target: HTMLInputElement }) => void;
  /** Message shown when the shape is wrong (after blur). */
  invalidMessage: string;
  /**
   * An entry form's address (login, sign-up, recovery): it starts with the address typed on the previous
   * one (lib/carried-address) when it is empty, and what is typed here is carried to the next.
   */
  carried?: boolean;
}

/** Spec §5: valid if empty or of e-mail shape; invalid puts the field in error; the value is passed on change. */
export const EmailField = forwardRef<HTMLInputElement, EmailFieldProps>(function EmailField(
  { value, onChange, invalidMessage, error, onBlur, carried = false, ...rest },
  ref,
) {
  const [touched, setTouched] = useState(false);
  const shapeError = touched && !isEmailShape(value.trim()) ? invalidMessage : null;
  const change = (event: { target: HTMLInputElement }) => {
    if (carried) carriedAddress.set(event.target.value);
    onChange(event);
  };
  return (
    <TextField
      ref={ref}
      // The prerendered page cannot know the carried address: it arrives with the app.
      arriving={carried ? () => carriedAddress.get() : undefined}
      type="email"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      error={error ?? shapeError}
      onChange={change}
      onBlur={(e) => {
        setTouched(true);
        // Only a value the form has not seen (autofill without a change event) is passed on: leaving the
        // field changes nothing, so a message about the address (and its links) stays until it changes.
        if (e.target.value !== value) change(e);
        onBlur?.(e);
      }}
      {...rest}
    />
  );
});
