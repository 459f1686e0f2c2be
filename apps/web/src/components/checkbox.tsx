import { useId, type ReactNode } from 'react';
import './ui.css';
import './checkbox.css';

export function Checkbox(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  error?: string | null;
  required?: boolean;
  name?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <div className="check">
        <input
          id={id}
          type="checkbox"
          name={props.name}
          checked={props.checked}
          required={props.required}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${id}-error` : undefined}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        <label htmlFor={id}>{props.children}</label>
      </div>
      {props.error ? (
        <span id={`${id}-error`} className="field__error" role="alert">
          {props.error}
        </span>
      ) : null}
    </div>
  );
}
