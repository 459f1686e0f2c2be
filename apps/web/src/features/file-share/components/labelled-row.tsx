import { useId, type ReactNode } from 'react';

/** A label above a row of controls; `children` gets the id its first control takes (the labelled one). */
export function LabelledRow(props: { label: string; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="field__label">
        {props.label}
      </label>
      <div className={props.className ? `row ${props.className}` : 'row'}>{props.children(id)}</div>
    </>
  );
}
