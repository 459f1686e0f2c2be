import type { MethodDeclaration } from '../method.js';

/** A code from an authenticator app (RFC 6238): a second factor after a first one. */
export const totpMethod: MethodDeclaration = {
  amr: 'totp',
  session: 'password',
  proves: 'second',
  phishingResistant: false,
  federated: false,
};
