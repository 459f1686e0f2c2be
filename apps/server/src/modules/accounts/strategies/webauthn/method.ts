import type { MethodDeclaration } from '../method.js';

/**
 * A passkey (WebAuthn with user verification): the device and its screen lock, two factors in one
 * proof, bound to this origin.
 */
export const passkeyMethod: MethodDeclaration = {
  amr: 'passkey',
  session: 'passkey',
  proves: 'both',
  phishingResistant: true,
  federated: false,
};
