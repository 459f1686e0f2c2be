import {
  forwardRef,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
} from 'react';
import { CODE_LENGTH, CODE_REFOCUS_MS } from '@suite/contract/core';
import './code-boxes.css';

export interface CodeBoxesHandle {
  /** Empties every box and puts the focus back on the first one. */
  clear(): void;
}

export interface CodeBoxesProps {
  /** Accessible name of the group, e.g. "Confirmation code". */
  label: string;
  /** Accessible name of one box, e.g. n => `Digit ${n} of 6`. */
  digitLabel: (n: number) => string;
  /** Called once all boxes hold a digit. */
  onComplete: (code: string) => void;
  /** While a code is being checked the boxes keep focus but take no input. */
  busy?: boolean;
  invalid?: boolean;
  describedBy?: string;
  /** A digit was typed or pasted: the screen clears a previous error (and the red boxes) at once. */
  onType?: () => void;
}

/** The box that starts the second half: the code is read, and remembered, as two groups of three. */
const GROUP_START = CODE_LENGTH % 2 === 0 ? CODE_LENGTH / 2 : -1;
const EMPTY = (): string[] => Array.from({ length: CODE_LENGTH }, () => '');
/** Devanagari digits (a Hindi keyboard) count as the ASCII digits the code is made of. */
const digitsOf = (text: string) =>
  text.replace(/[\u0966-\u096F]/g, (d) => String(d.charCodeAt(0) - 0x966)).replace(/\D/g, '');

/**
 * Six single-digit boxes (spec §4): digits only; typing moves on; Backspace in an empty box clears
 * the previous digit; pasting (or one-time-code autofill) spreads the digits; all six filled calls
 * onComplete. The first box is refocused every second until focus goes elsewhere.
 */
export const CodeBoxes = forwardRef<CodeBoxesHandle, CodeBoxesProps>(function CodeBoxes(
  { label, digitLabel, onComplete, busy = false, invalid = false, describedBy, onType },
  ref,
) {
  const [digits, setDigits] = useState<string[]>(EMPTY);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const refocus = useRef(true);
  const labelId = useId();
  const focusBox = (i: number) => inputs.current[Math.max(0, Math.min(CODE_LENGTH - 1, i))]?.focus();

  useImperativeHandle(ref, () => ({
    clear() {
      setDigits(EMPTY());
      focusBox(0);
    },
  }));

  useEffect(() => {
    const first = () => inputs.current[0];
    // Any focus outside the first box (a click elsewhere, a dialog) ends the refocusing.
    const onFocusIn = (event: FocusEvent) => {
      if (event.target !== first()) refocus.current = false;
    };
    document.addEventListener('focusin', onFocusIn);
    if (refocus.current) first()?.focus();
    const timer = window.setInterval(() => {
      if (refocus.current && document.activeElement !== first()) first()?.focus();
    }, CODE_REFOCUS_MS);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      window.clearInterval(timer);
    };
  }, []);

  function update(next: string[], focusAt: number) {
    onType?.();
    setDigits(next);
    focusBox(focusAt);
    if (next.every((d) => d !== '')) onComplete(next.join(''));
  }

  /** Writes `text`'s digits into the boxes from `start` on. */
  function spread(start: number, text: string) {
    const given = digitsOf(text).slice(0, CODE_LENGTH);
    if (!given) return;
    const from = given.length >= CODE_LENGTH ? 0 : start;
    const next = [...digits];
    for (let k = 0; k < given.length && from + k < CODE_LENGTH; k++) next[from + k] = given[k]!;
    update(next, Math.min(from + given.length, CODE_LENGTH - 1));
  }

  function onInput(i: number, raw: string) {
    if (busy) return;
    const given = digitsOf(raw);
    if (given.length === 0) {
      if (raw === '') setDigits((current) => current.map((d, k) => (k === i ? '' : d)));
      return;
    }
    if (given.length > 2 || (given.length === 2 && digits[i] === '')) return spread(i, given);
    // A second digit typed into a filled box replaces it.
    const typed = given.length === 2 ? (given.startsWith(digits[i]!) ? given[1]! : given[0]!) : given;
    const next = digits.map((d, k) => (k === i ? typed : d));
    update(next, i + 1);
  }

  function onKeyDown(i: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace' && digits[i] === '' && i > 0) {
      event.preventDefault();
      if (busy) return;
      setDigits((current) => current.map((d, k) => (k === i - 1 ? '' : d)));
      focusBox(i - 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(i - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(i + 1);
    }
  }

  function onPaste(i: number, event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    if (!busy) spread(i, event.clipboardData.getData('text'));
  }

  return (
    <div className="code-boxes" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      <span id={labelId} className="visually-hidden">
        {label}
      </span>
      {digits.map((digit, i) => (
        <input
          key={i}
          ref={(el) => {
            inputs.current[i] = el;
          }}
          className={`code-boxes__box${i === GROUP_START ? ' code-boxes__box--group' : ''}${invalid ? ' code-boxes__box--error' : ''}`}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          aria-label={digitLabel(i + 1)}
          aria-invalid={invalid || undefined}
          readOnly={busy}
          value={digit}
          onChange={(e) => onInput(i, e.target.value)}
          onKeyDown={(e) => onKeyDown(i, e)}
          onPaste={(e) => onPaste(i, e)}
          onFocus={(e) => e.target.select()}
          onBlur={() => {
            if (i === 0) refocus.current = false;
          }}
        />
      ))}
    </div>
  );
});
