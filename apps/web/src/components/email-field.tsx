import { forwardRef, useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
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
  const own = useRef<HTMLInputElement | null>(null);
  const setRef = useCallback(
    (element: HTMLInputElement | null) => {
      own.current = element;
      if (typeof ref === 'function') ref(element);
      else if (ref) ref.current = element;
    },
    [ref],
  );
  const shapeError = touched && !isEmailShape(value.trim()) ? invalidMessage : null;
  // The carried address that should stay selected once the form's state has it (see takeCarried).
  const selectOnCommit = useRef<string | null>(null);
  const change = (event: { target: HTMLInputElement }) => {
    selectOnCommit.current = null;
    if (carried) carriedAddress.set(event.target.value);
    onChange(event);
  };
  // After the field's own first effect (what was typed before the app ran wins): an empty field takes
  // the carried address. The prerendered page cannot know it, so it arrives after the first paint: in a
  // field the person is already in, it comes selected, so that what they type next replaces it instead
  // of being glued after it.
  const takeCarried = useEffectEvent(() => {
    const input = own.current;
    const address = carriedAddress.get();
    if (!carried || !input || input.value || !address) return;
    input.value = address;
    onChange({ target: input });
    if (input.ownerDocument.activeElement !== input) return;
    input.select();
    selectOnCommit.current = address;
  });
  // takeCarried is an Effect Event (useEffectEvent), never a dependency; eslint-plugin-react-hooks 5 predates it.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => takeCarried(), []);
  // An update already under way when the address arrived (the server's settings, right after hydration)
  // may commit the form's state from before it: React writes the empty value back, then the address
  // again, and the second write leaves the caret at its end. Selected again once the state has it.
  useLayoutEffect(() => {
    const input = own.current;
    if (!input || selectOnCommit.current === null || value !== selectOnCommit.current) return;
    selectOnCommit.current = null;
    if (input.ownerDocument.activeElement === input) input.select();
  }, [value]);
  return (
    <TextField
      ref={setRef}
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
