import { Fragment, type ReactNode } from 'react';

/**
 * An e-mail address, in bold, that breaks only before its "@": the local part and the domain each stay
 * whole ("acme-⏎corp.test" and "user⏎@acme.test" never happen), and on the narrowest phones the domain,
 * where a typo hides, goes to the next line instead of behind an ellipsis. The break is a <wbr>, no
 * character: a screen reader reads one address, a copy carries no line break.
 */
export function Address({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  return (
    <span className="address" title={email} data-testid="address">
      {at > 0 ? (
        <>
          <span className="address__part">{email.slice(0, at)}</span>
          <wbr />
          <span className="address__part">{email.slice(at)}</span>
        </>
      ) : (
        <span className="address__part">{email}</span>
      )}
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
