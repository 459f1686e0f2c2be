import { Fragment } from 'react';

/**
 * An e-mail address that never breaks inside ("acme-⏎corp.test"): its local part and its "@domain" each
 * stay on one line; a narrow screen may break only before the "@".
 */
export function Address({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span className="address address__part">{email}</span>;
  return (
    <span className="address">
      <span className="address__part">{email.slice(0, at)}</span>
      <wbr />
      <span className="address__part">{email.slice(at)}</span>
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
