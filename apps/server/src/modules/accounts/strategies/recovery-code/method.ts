import type { MethodDeclaration } from '../method.js';

/** One of the printed recovery codes: stands in for the app code once, a second factor. */
export const recoveryCodeMethod: MethodDeclaration = {
  amr: 'lookup_secret',
  session: 'password',
  proves: 'second',
  phishingResistant: false,
  federated: false,
};
