import { Fragment } from 'react';

/** How much of the end of a long address always shows: its "@domain" when short, else its last characters. */
const TAIL_MAX = 18;

/**
 * An e-mail address that never breaks ("acme-⏎corp.test", "user⏎@acme.test"): one line, in bold. Where
 * the line is too short for it (the narrowest phones), its middle gives way to an ellipsis and the end
 * stays ("ada.lovel…@acme.test"); the whole address stays in the text (copy, screen readers) and the title.
 */
export function Address({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  const cut = at > 0 && email.length - at <= TAIL_MAX ? at : Math.max(0, email.length - TAIL_MAX);
  return (
    <span className="address" title={email} data-testid="address">
      <span className="address__head">{email.slice(0, cut)}</span>
      <span className="address__tail">{email.slice(cut)}</span>
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
