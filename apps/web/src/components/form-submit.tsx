import type { ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';

/** The end of an entry form: its message (if any), other actions, then the wide submit button, busy while sending. */
export function FormSubmit(props: { error: string | null; busy: boolean; label: string; children?: ReactNode }) {
  return (
    <>
      {props.error ? <Alert>{props.error}</Alert> : null}
      {props.children}
      <Button type="submit" block loading={props.busy}>
        {props.label}
      </Button>
    </>
  );
}
