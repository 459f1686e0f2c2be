import { lazy, Suspense } from 'react';
import type { SsoAvailability } from '../lib/sso';

const SsoChoiceView = lazy(() => import('./sso-choice-view'));

/**
 * "Continue with single sign-on" where home-realm discovery (lib/sso.ts) found the address's identity
 * provider: nothing otherwise. Its view and texts load only then, never with an entry screen's first load.
 */
export function SsoChoice({
  email,
  availability,
  note,
}: {
  email: string;
  availability: SsoAvailability;
  /** false: the screen says it already (the login's lead); default true. */
  note?: boolean;
}) {
  if (availability === 'none') return null;
  return (
    <Suspense fallback={null}>
      <SsoChoiceView email={email} availability={availability} note={note} />
    </Suspense>
  );
}
