import {
  forwardRef,
  useCallback,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { takeTyped } from '../lib/typed-early';
import './ui.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  /** A message at the field; a node when part of it must keep together (a domain, in <WithDomain>). */
  error?: ReactNode;
  hint?: ReactNode;
  suffix?: ReactNode;
  /** Extra control inside the field, after the input (e.g. show/hide). */
  trailing?: ReactNode;
  hideLabel?: boolean;
  /**
   * A value the field takes once, when it arrives empty and nothing was typed into it before the app ran
   * (the address carried from the last form): selected if the person is already in the field, so that
   * what they type next replaces it instead of being glued after it.
   */
  arriving?: () => string;
}

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, suffix, trailing, hideLabel, arriving, id, className, ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const own = useRef<HTMLInputElement | null>(null);
  const setRef = useCallback(
    (element: HTMLInputElement | null) => {
      own.current = element;
      if (typeof ref === 'function') ref(element);
      else if (ref) ref.current = element;
    },
    [ref],
  );
  // Typed into the prerendered page before the app ran: the form's state takes it now (lib/typed-early).
  // Else, in an empty field, what `arriving` brings.
  const restore = useEffectEvent(() => {
    const input = own.current;
    if (!input) return;
    const typed = takeTyped(input);
    const value = typed ?? (input.value ? '' : (arriving?.() ?? ''));
    if (!value) return;
    input.value = value;
    rest.onChange?.({ target: input, currentTarget: input } as ChangeEvent<HTMLInputElement>);
    if (typed === undefined && input.ownerDocument.activeElement === input) input.select();
  });
  // In the commit itself, not after it: the form's state update is then rendered before any other. Set
  // later, an update already under way (the server's settings, right after hydration) could commit the
  // state from before it: React would write the old value back, then the new one, leaving the caret at
  // its end (and a selection lost).
  // restore is an Effect Event (useEffectEvent), never a dependency; eslint-plugin-react-hooks 5 predates it.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => restore(), []);
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const suffixId = `${inputId}-suffix`;
  // A fixed suffix (e.g. "@domain") is part of what is typed into: screen readers hear it with the field.
  const describedBy =
    [suffix ? suffixId : null, error ? errorId : hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={inputId} className={hideLabel ? 'visually-hidden' : 'field__label'}>
        {label}
        {rest.required && !hideLabel ? <span aria-hidden="true"> *</span> : null}
      </label>
      <div className={`field__control${error ? ' field__control--error' : ''}`}>
        <input
          ref={setRef}
          id={inputId}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...rest}
        />
        {suffix ? (
          <span id={suffixId} className="field__suffix" title={typeof suffix === 'string' ? suffix : undefined}>
            {suffix}
          </span>
        ) : null}
        {trailing}
      </div>
      {/* One message at the field: a problem takes the hint's place, in red (never the grey hint above a red
          repetition of it). */}
      {error ? (
        <span id={errorId} className="field__error" role="alert">
          {error}
        </span>
      ) : hint ? (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
});
