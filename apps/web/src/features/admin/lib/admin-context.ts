import type { Language } from '@suite/contract/core';

/** What every section is given by the console. */
export interface AdminContext {
  /** The domain administered (the first one, or the one picked). */
  domain: string;
  /** Runs an action; on "proof required" asks for a fresh proof first, then runs it again (components/fresh-proof). */
  withProof: <T>(action: () => Promise<T>) => Promise<T>;
  /** Says something in the console's live region (an action done, cancelled). */
  announce: (text: string) => void;
  language: Language;
  /** BCP 47 tag of the UI language, for dates. */
  languageTag: string;
}
