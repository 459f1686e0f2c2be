import { Fragment, type ReactNode } from 'react';

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

/**
 * A domain inside a sentence ("Your organization (acme-corp.test) uses…"): a browser breaks a line after
 * any hyphen, which leaves "acme-" on one line and "corp.test" on the next. A no-wrap span keeps it whole
 * while its characters stay the real ones: a copy, a search in the page and a screen reader get the
 * domain as typed (a U+2011 swap would hand them a different character).
 */
function Domain({ domain }: { domain: string }) {
  return <span className="domain">{domain}</span>;
}

/** `text` with each occurrence of `value` drawn by `render`; the text alone when `value` is not in it. */
function around(text: string, value: string, render: (value: string) => ReactNode) {
  if (!value || !text.includes(value)) return <>{text}</>;
  return (
    <>
      {text.split(value).map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? render(value) : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** A translated sentence with the address in it, the address rendered by <Address>. */
export function WithAddress({ text, email }: { text: string; email: string }) {
  return around(text, email, (value) => <Address email={value} />);
}

/** A translated sentence with a domain in it, the domain rendered by <Domain>. */
export function WithDomain({ text, domain }: { text: string; domain: string }) {
  return around(text, domain, (value) => <Domain domain={value} />);
}
