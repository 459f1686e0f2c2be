import { Fragment } from 'react';

/**
 * An e-mail address that never breaks ("acme-⏎corp.test", "user⏎@acme.test"): one line, in bold, one
 * piece of text (a screen reader reads it whole, a copy carries no line break). Where the line is too
 * short for it (the narrowest phones) its end gives way to an ellipsis; the title keeps it whole.
 */
export function Address({ email }: { email: string }) {
  return (
    <span className="address" title={email} data-testid="address">
      {email}
    </span>
  );
}

/** A translated sentence with the address in it, the address rendered by <Address>. */
export function WithAddress({ text, email }: { text: string; email: string }) {
  if (!email || !text.includes(email)) return <>{text}</>;
  return (
    <>
      {text.split(email).map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <Address email={email} /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
