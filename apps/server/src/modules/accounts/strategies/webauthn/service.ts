import { MAX_PASSKEYS, PASSKEY_CHALLENGE_TTL_MS, PASSKEY_NAME_MAX, type Language, type Passkey } from '@suite/contract';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '../../../../errors.js';
import { requireDisplayName } from '../../../../names.js';
import type { SessionUser } from '../../../../plugins/auth.js';
import { flowState } from '../../state/repository.js';
import { domainsRepository } from '../../domains/repository.js';
import { holderOf, noteFactorChange } from '../../identity/factor-changes.js';
import { requireAllowed } from '../../policy/index.js';
import { passkeyMethod } from './method.js';
import type { AccountsDeps } from '../../deps.js';
import { usersRepository, type UserRow } from '../../identity/repository.js';
import { requireFreshProofAtAccountLevel } from '../totp/service.js';
import { passkeysRepository, type PasskeyRow } from './repository.js';

/**
 * A passkey change needs a fresh proof, at AAL2 on an account with an authenticator app (a passkey
 * signs in without it, so a phished password must not bind or remove one).
 */
const requireProofFor = (deps: AccountsDeps, session: SessionUser) => requireFreshProofAtAccountLevel(deps.db, session);

/**
 * Passkeys (WebAuthn, @simplewebauthn/server, loaded on first use): the relying party is PUBLIC_URL —
 * its host the RP ID, its origin the only origin accepted; user verification required; discoverable
 * credentials (the sign-in names no account); challenges single-use and short-lived in the database
 * (state/repository.ts), so any instance can answer one made by another; counters kept.
 */

let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

const relyingParty = (deps: AccountsDeps) => {
  const url = new URL(deps.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
};

/** The challenge a browser answered, read from its clientDataJSON (checked again by the library). */
function answeredChallenge(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  _id: row.id,
  name: row.name,
  created_at: new Date(Number(row.created_at)).toISOString(),
  last_used_at: row.last_used_at === null ? null : new Date(Number(row.last_used_at)).toISOString(),
  synced: row.backed_up === 1,
});

export async function listPasskeys(deps: AccountsDeps, userId: string): Promise<Passkey[]> {
  return (await passkeysRepository(deps.db).ofUser(userId)).map(toPasskey);
}

/** Options for navigator.credentials.create: a discoverable credential, user verification required. */
export async function registrationOptions(deps: AccountsDeps, session: SessionUser) {
  await requireProofFor(deps, session);
  const user = await usersRepository(deps.db).byId(session.id);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  requireAllowed(user, await domainsRepository(deps.db).rules(user.domain), passkeyMethod);
  const existing = await passkeysRepository(deps.db).ofUser(user.id);
  if (existing.length >= MAX_PASSKEYS) throw new AppError('ERR_PASSKEY_LIMIT');
  const { generateRegistrationOptions } = await webauthn();
  const { rpID } = relyingParty(deps);
  const options = await generateRegistrationOptions({
    rpName: deps.config.appTitle,
    rpID,
    userName: user.email,
    userDisplayName: `${user.first_name} ${user.last_name}`.trim() || user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: JSON.parse(p.transports) as [] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await flowState(deps.db).put('passkey-register', options.challenge, {
    subject: user.id,
    ttlMs: PASSKEY_CHALLENGE_TTL_MS,
  });
  return { options: options as unknown as Record<string, unknown> };
}

/** Verifies the new credential against a challenge this user asked for, then keeps it; mails a notice. */
export async function addPasskey(
  deps: AccountsDeps,
  session: SessionUser,
  input: { response: unknown; name?: string | undefined; language?: Language | undefined },
): Promise<Passkey> {
  // The proof and the name are checked first: a refusal costs no challenge (the person proves it is
  // them, or fixes the name, and tries again).
  await requireProofFor(deps, session);
  const name = input.name?.trim() ? requireDisplayName(input.name, 'name', PASSKEY_NAME_MAX) : 'Passkey';
  const response = input.response as RegistrationResponseJSON;
  const challenge = answeredChallenge(response.response.clientDataJSON);
  const taken = challenge ? await flowState(deps.db).take('passkey-register', challenge) : undefined;
  if (!challenge || !taken || taken.subject !== session.id) throw new AppError('ERR_PASSKEY_FAILED');
  const user = await usersRepository(deps.db).byId(session.id);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  requireAllowed(user, await domainsRepository(deps.db).rules(user.domain), passkeyMethod);
  const { verifyRegistrationResponse } = await webauthn();
  const { rpID, origin } = relyingParty(deps);
  let info;
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
    info = result.verified ? result.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw new AppError('ERR_PASSKEY_FAILED');
  const repo = passkeysRepository(deps.db);
  if (await repo.byCredentialId(info.credential.id)) throw new AppError('ERR_PASSKEY_FAILED');
  if ((await repo.count(user.id)) >= MAX_PASSKEYS) throw new AppError('ERR_PASSKEY_LIMIT');
  const row = await deps.db.transaction().execute(async (trx) => {
    const added = await passkeysRepository(trx).add({
      user_id: user.id,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? response.response.transports ?? []),
      name,
      backed_up: info.credentialBackedUp ? 1 : 0,
    });
    const change = { kind: 'passkey-added' as const, passkeyId: added.id };
    await noteFactorChange(trx, deps.mailer, holderOf(user, input.language), change, session.sessionId);
    return added;
  });
  deps.mailer.kick();
  return toPasskey(row);
}

export async function renamePasskey(
  deps: AccountsDeps,
  session: SessionUser,
  id: string,
  name: string,
): Promise<Passkey> {
  const clean = requireDisplayName(name, 'name', PASSKEY_NAME_MAX);
  const repo = passkeysRepository(deps.db);
  if (!(await repo.rename(session.id, id, clean))) throw new AppError('ERR_NOT_FOUND');
  const row = (await repo.ofUser(session.id)).find((p) => p.id === id);
  if (!row) throw new AppError('ERR_NOT_FOUND');
  return toPasskey(row);
}

/**
 * Removing a passkey is a factor change too (a thief removes the owner's key to keep the owner out):
 * it needs a fresh proof, ends the other sessions and mails a notice with its "this wasn't me" link.
 * Removing the last way in is refused: an account without a password keeps its last passkey.
 */
export async function removePasskey(deps: AccountsDeps, session: SessionUser, id: string): Promise<{ ok: true }> {
  const user = await usersRepository(deps.db).byId(session.id);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  const mine = await passkeysRepository(deps.db).ofUser(user.id);
  // Another account's passkey stays a 404 before any proof is asked: the answer says nothing of it.
  if (!mine.some((p) => p.id === id)) throw new AppError('ERR_NOT_FOUND');
  await requireProofFor(deps, session);
  if (user.password_hash === null && mine.length === 1) throw new AppError('ERR_LAST_SIGN_IN_METHOD');
  await deps.db.transaction().execute(async (trx) => {
    if (!(await passkeysRepository(trx).remove(user.id, id))) throw new AppError('ERR_NOT_FOUND');
    const change = { kind: 'passkey-removed' as const };
    await noteFactorChange(trx, deps.mailer, holderOf(user), change, session.sessionId);
  });
  deps.mailer.kick();
  return { ok: true };
}

/** Options for navigator.credentials.get: no account named (discoverable credentials, autofill). */
export async function loginOptions(deps: AccountsDeps) {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps).rpID,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await flowState(deps.db).put('passkey-login', options.challenge, { ttlMs: PASSKEY_CHALLENGE_TTL_MS });
  return { options: options as unknown as Record<string, unknown> };
}

/**
 * A passkey sign-in: the challenge is consumed first (a replay finds it gone), the credential must be
 * known and, when the browser names its user, belong to that user; the assertion is checked for this
 * origin and RP ID with user verification, and its counter must move forward (kept by compare-and-set).
 * Returns the user to sign in (no password, no second step).
 */
export async function answerPasskeyLogin(deps: AccountsDeps, input: { response: unknown }): Promise<UserRow> {
  const response = input.response as AuthenticationResponseJSON;
  const challenge = answeredChallenge(response.response.clientDataJSON);
  const taken = challenge ? await flowState(deps.db).take('passkey-login', challenge) : undefined;
  if (!challenge || !taken) throw new AppError('ERR_PASSKEY_FAILED');
  const repo = passkeysRepository(deps.db);
  const passkey = await repo.byCredentialId(response.id);
  if (!passkey) throw new AppError('ERR_PASSKEY_UNKNOWN');
  const handle = response.response.userHandle;
  if (handle !== undefined && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.user_id) {
    throw new AppError('ERR_PASSKEY_FAILED');
  }
  const { verifyAuthenticationResponse } = await webauthn();
  const { rpID, origin } = relyingParty(deps);
  let info;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: Number(passkey.counter),
        transports: JSON.parse(passkey.transports) as [],
      },
    });
    info = result.verified ? result.authenticationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw new AppError('ERR_PASSKEY_FAILED');
  if (!(await repo.used(passkey.id, Number(passkey.counter), info.newCounter, info.credentialBackedUp))) {
    throw new AppError('ERR_PASSKEY_FAILED');
  }
  const user = await usersRepository(deps.db).byId(passkey.user_id);
  if (!user) throw new AppError('ERR_PASSKEY_UNKNOWN');
  return user;
}
