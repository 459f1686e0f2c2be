import type { MethodDeclaration } from '../method.js';

/** A code mailed to the address: proves the mailbox, a first factor. */
export const emailCodeMethod: MethodDeclaration = {
  amr: 'code',
  session: 'code',
  proves: 'first',
  phishingResistant: false,
  federated: false,
};
