import {
  WebAuthnAbortService,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { SECURITY_API, type Passkey, type SessionResponse } from '@suite/contract/core';
import { ApiError, apiRequest } from './api-client';
import { saveSession } from './session';

/**
 * The browser side of passkeys (@simplewebauthn/browser). Loaded with import() where a passkey is
 * used (the Security panel, the login screen's button or its autofill), never with a screen's first load.
 */

type Options = { options: Record<string, unknown> };

/** A ceremony the person cancelled or the browser refused: no request was answered. */
export class PasskeyCancelled extends Error {}

function ceremonyFailure(error: unknown): never {
  if (error instanceof ApiError) throw error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError' || name === 'InvalidStateError') {
    throw new PasskeyCancelled(name);
  }
  throw new ApiError(0, 'ERR_PASSKEY_FAILED', 'The passkey could not be verified. Please try again.');
}

/** Creates a passkey on this device for the signed-in account and keeps it under `name`. */
export async function addPasskey(name: string): Promise<Passkey> {
  const { options } = await apiRequest<Options>({
    method: 'POST',
    path: SECURITY_API.passkeyRegistrationOptions,
    auth: true,
  });
  const response = await startRegistration({ optionsJSON: options as never }).catch(ceremonyFailure);
  return apiRequest<Passkey>({ method: 'POST', path: SECURITY_API.passkeys, auth: true, body: { response, name } });
}

/** Proves again, with one of the account's passkeys, for the session in hand (before a factor change). */
export async function provePasskey(): Promise<void> {
  const { options } = await apiRequest<Options>({ method: 'POST', path: SECURITY_API.passkeyLoginOptions });
  const response = await startAuthentication({ optionsJSON: options as never }).catch(ceremonyFailure);
  await apiRequest<{ ok: true }>({
    method: 'POST',
    path: SECURITY_API.reauth,
    auth: true,
    body: { method: 'passkey', response },
  });
}

/**
 * Signs in with a passkey. `autofill`: conditional mediation — waits for the person to pick a passkey
 * in the e-mail field's autofill list (resolves only then); otherwise the browser's passkey dialog.
 * `picked` is called once the browser has the person's passkey, before it is sent to the server.
 */
export async function signInWithPasskey(
  autofill = false,
  picked: () => void = () => undefined,
): Promise<SessionResponse> {
  const { options } = await apiRequest<Options>({ method: 'POST', path: SECURITY_API.passkeyLoginOptions });
  const response = await startAuthentication({ optionsJSON: options as never, useBrowserAutofill: autofill }).catch(
    ceremonyFailure,
  );
  picked();
  return apiRequest<SessionResponse>({ method: 'POST', path: SECURITY_API.passkeyLogin, body: { response } });
}

/**
 * The login screen's passkey sign-in, from its button or from the e-mail field's autofill: the session
 * saved ('signed-in'), 'cancelled' by the person at the button, null when there is nothing to say
 * (autofill not offered, or given up unasked), or the error to show. Autofill runs unasked, so only the
 * server's refusal of a passkey the person picked is shown there: a failure to start it (its options
 * request refused or unanswered, a busy server) says nothing, and leaves whatever the screen says (a
 * password answer, "not confirmed" and its Send again) in place.
 */
export async function passkeySignIn(autofill: boolean): Promise<'signed-in' | 'cancelled' | null | unknown> {
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return null;
  let chosen = false;
  try {
    const session = await signInWithPasskey(autofill, () => (chosen = true));
    if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
    return 'signed-in';
  } catch (caught) {
    if (caught instanceof PasskeyCancelled) return autofill ? null : 'cancelled';
    if (autofill && !(chosen && caught instanceof ApiError && caught.status > 0)) return null;
    return caught;
  }
}

/** Ends a pending autofill request (leaving the screen, or the button was used instead). */
export const cancelCeremony = () => WebAuthnAbortService.cancelCeremony();
