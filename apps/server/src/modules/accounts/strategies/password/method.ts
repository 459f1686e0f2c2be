import type { MethodDeclaration } from '../method.js';

/** A password: something known, a first factor; a look-alike site can ask for it. */
export const passwordMethod: MethodDeclaration = {
  amr: 'password',
  session: 'password',
  proves: 'first',
  phishingResistant: false,
  federated: false,
};
