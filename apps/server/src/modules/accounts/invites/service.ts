import type { Kysely } from 'kysely';
import {
  MAX_TEAMMATES,
  cleanDisplayName,
  emailDomain,
  isEmailShape,
  normalizeEmail,
  type InvitationUrlResponse,
  type InviteTeammatesResponse,
  type Language,
  type ValidateInviteResponse,
} from '@suite/contract';
import type { AppConfig } from '../../../config.js';
import type { Database } from '../../../db/schema.js';
import { inviteUrl } from '../../../emails/index.js';
import { AppError } from '../../../errors.js';
import type { SessionUser } from '../../../plugins/auth.js';
import { mailSite, queueMail } from '../../../plugins/mailer.js';
import { isPersonalAddress } from '../domains/free-mail.js';
import { domainsRepository } from '../domains/repository.js';
import type { AccountsDeps } from '../deps.js';
import { awaitsCodeStep, usersRepository, type UserRow } from '../identity/repository.js';
import { invitesRepository, teamLinksRepository } from './repository.js';
import { INVITE_TTL_DAYS, TEAM_INVITE_TTL_DAYS, readInviteToken, signInvite, signTeamInvite } from './tokens.js';

/** One mailbox gets at most this many invites a day, whoever sends them (no flooding a mailbox). */
export const MAX_INVITES_PER_ADDRESS_PER_DAY = 3;
const DAY_MS = 86_400_000;

/**
 * Where an error's details point: the position in the submitted `emails` list, never the address itself
 * (nothing of the request is echoed, docs/security.md).
 */
const emailsField = (index: number) => `emails.${index}`;

/**
 * ERR_RATE_LIMITED (with Retry-After; details name the positions in `given`) when an address had its
 * daily share.
 */
async function checkInviteCap(db: Kysely<Database>, emails: string[], given: string[]): Promise<void> {
  const now = Date.now();
  const full = (await invitesRepository(db).recent(emails, now - DAY_MS)).filter(
    (r) => r.n >= MAX_INVITES_PER_ADDRESS_PER_DAY,
  );
  if (full.length === 0) return;
  const wait = Math.max(...full.map((r) => r.oldest + DAY_MS - now));
  const capped = new Set(full.map((r) => r.email));
  throw new AppError('ERR_RATE_LIMITED', {
    retryAfterS: wait / 1000,
    details: given.flatMap((e, i) =>
      capped.has(normalizeEmail(e.trim())) ? [{ path: emailsField(i), message: 'invited too often today' }] : [],
    ),
  });
}

export interface NewInvite {
  email: string;
  inviterId: string | null;
  /** Whom the mail names: the inviting account's name and address; null: an administrator (admin CLI). */
  inviter: { name: string; address: string } | null;
  language: Language;
}

/** The invite record and its mail, written with the caller's transaction. */
export async function writeInvite(db: Kysely<Database>, config: AppConfig, input: NewInvite): Promise<{ url: string }> {
  const { token, jtiHash, expiresAt } = await signInvite(config.keys.invite, input.email);
  await invitesRepository(db).insert({ jtiHash, email: input.email, inviterId: input.inviterId, expiresAt });
  const message = {
    kind: 'invite' as const,
    to: input.email,
    language: input.language,
    inviter: input.inviter,
    inviteToken: token,
    days: INVITE_TTL_DAYS,
  };
  await queueMail(db, message, mailSite(config));
  return { url: inviteUrl(mailSite(config), token) };
}

/** One invite in its own transaction (the admin CLI's `invite` command). */
export function createInvite(db: Kysely<Database>, config: AppConfig, input: NewInvite): Promise<{ url: string }> {
  return db.transaction().execute((trx) => writeInvite(trx, config, input));
}

/** The inviter as the invitee's mail shows them; names stored before the display-name rule are cleaned here. */
const displayName = (user: UserRow) => cleanDisplayName(`${user.first_name} ${user.last_name}`) || user.email;

/** Only a corporate-domain account may invite: a free-mail "team" would let anyone in. */
async function corporateInviter(deps: AccountsDeps, session: SessionUser): Promise<UserRow> {
  const inviter = await usersRepository(deps.db).byId(session.id);
  if (!inviter || (await isPersonalAddress(inviter.domain))) throw new AppError('ERR_FORBIDDEN');
  return inviter;
}

/** Same-domain, well-formed, distinct addresses, or the matching catalogue error. */
function checkTeammates(given: string[], domain: string): string[] {
  const entries = given.map((e, i) => ({ value: e.trim(), path: emailsField(i) })).filter((e) => e.value);
  if (entries.length === 0) throw new AppError('ERR_NO_EMAIL_PROVIDED');
  if (entries.length > MAX_TEAMMATES) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ path: 'emails', message: `at most ${MAX_TEAMMATES} addresses` }],
    });
  }
  const bad = entries.filter((e) => !isEmailShape(e.value));
  if (bad.length)
    throw new AppError('ERR_INVALID_TEAMMATE_EMAIL', {
      details: bad.map((e) => ({ path: e.path, message: 'invalid email' })),
    });
  const emails = entries.map((e) => normalizeEmail(e.value));
  const dupes = entries.filter((e, i) => emails.indexOf(normalizeEmail(e.value)) !== i);
  if (dupes.length) {
    throw new AppError('ERR_INVALID_TEAMMATE_EMAIL', {
      details: dupes.map((e) => ({ path: e.path, message: 'duplicate' })),
    });
  }
  const same = emails.filter((e) => emailDomain(e) === domain);
  if (same.length === 0) throw new AppError('ERR_NO_SAME_DOMAIN_EMAIL');
  if (same.length < emails.length) throw new AppError('ERR_TEAMMATE_DOMAIN');
  return emails;
}

export async function inviteTeammates(
  deps: AccountsDeps,
  session: SessionUser,
  given: string[],
  language: Language,
): Promise<InviteTeammatesResponse> {
  const inviter = await corporateInviter(deps, session);
  const emails = checkTeammates(given, inviter.domain);
  if (!(await domainsRepository(deps.db).rules(inviter.domain)).active) throw new AppError('ERR_DOMAIN_INACTIVE');
  // Confirmed but never registered (no password): an invite is one way to finish (awaitsCodeStep).
  const registered = new Set(await usersRepository(deps.db).registeredAmong(emails));
  const invited = emails.filter((e) => !registered.has(e));
  if (invited.length === 0) throw new AppError('ERR_ALL_EMAILS_REGISTERED');
  await checkInviteCap(deps.db, invited, given);
  // All invites or none: a failure half-way must not leave some mailed and the call reported failed.
  await deps.db.transaction().execute(async (trx) => {
    for (const email of invited) {
      await writeInvite(trx, deps.config, {
        email,
        inviterId: inviter.id,
        inviter: { name: displayName(inviter), address: inviter.email },
        language,
      });
    }
  });
  deps.mailer.kick();
  return { invited, already_registered: emails.filter((e) => registered.has(e)) };
}

const TEAM_LINK_TTL_MS = TEAM_INVITE_TTL_DAYS * DAY_MS;

/** The team link as the signed-in home shows it: the sign-up screen's address, or null when it is off. */
async function teamLinkOf(deps: AccountsDeps, inviter: UserRow): Promise<InvitationUrlResponse> {
  const row = await teamLinksRepository(deps.db).find(inviter.id);
  if (!row || row.off_at !== null) return { url: null, expires_at: null };
  const token = await signTeamInvite(deps.config.keys.invite, inviter.domain, inviter.id, {
    generation: row.generation,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  });
  return {
    url: `${deps.config.publicUrl}/user/signup?inviteToken=${encodeURIComponent(token)}`,
    expires_at: new Date(row.expires_at).toISOString(),
  };
}

/**
 * GET /invite/url: the inviter's team link, the same one on every visit until it is replaced or turned
 * off (made on first use; a link past its 30 days is replaced by a new one); `url` null while it is off.
 */
export async function invitationUrl(deps: AccountsDeps, session: SessionUser): Promise<InvitationUrlResponse> {
  const inviter = await corporateInviter(deps, session);
  const links = teamLinksRepository(deps.db);
  const row = await links.find(inviter.id);
  const now = Date.now();
  if (!row) await links.create(inviter.id, now, TEAM_LINK_TTL_MS);
  else if (row.off_at === null && row.expires_at <= now) await links.rotate(inviter.id, now, TEAM_LINK_TTL_MS);
  return teamLinkOf(deps, inviter);
}

/** POST /invite/url: a new team link; every earlier one stops working at once, on every instance. */
export async function rotateInvitationUrl(deps: AccountsDeps, session: SessionUser): Promise<InvitationUrlResponse> {
  const inviter = await corporateInviter(deps, session);
  await teamLinksRepository(deps.db).rotate(inviter.id, Date.now(), TEAM_LINK_TTL_MS);
  return teamLinkOf(deps, inviter);
}

/** DELETE /invite/url: no team link of this inviter admits anyone until a new one is made. */
export async function turnOffInvitationUrl(deps: AccountsDeps, session: SessionUser): Promise<InvitationUrlResponse> {
  const inviter = await corporateInviter(deps, session);
  await teamLinksRepository(deps.db).turnOff(inviter.id, Date.now());
  return { url: null, expires_at: null };
}

/**
 * A team link speaks for its inviter: once that account is gone, deactivated or moved, it admits nobody;
 * nor once its inviter replaced it or turned it off (ERR_INVITE_LINK_OFF).
 */
async function checkTeamInviter(
  deps: AccountsDeps,
  read: { inviterId: string; domain: string; generation: number | null },
): Promise<void> {
  const inviter = await usersRepository(deps.db).byId(read.inviterId);
  if (!inviter?.active || inviter.domain !== read.domain) throw new AppError('ERR_INVITE_INVALID');
  const row = await teamLinksRepository(deps.db).find(read.inviterId);
  const current =
    read.generation === null
      ? // A link made before links had generations: good until the first replacement or turn-off.
        !row || (row.generation === 1 && row.off_at === null)
      : row?.generation === read.generation && row.off_at === null && row.expires_at > Date.now();
  if (!current) throw new AppError('ERR_INVITE_LINK_OFF');
}

export type InviteStatus = 'pending' | 'accepted' | 'expired';

/**
 * The invite screen's check: the invitee's address (personal invites) and the status; while the
 * invitation is pending (valid, unexpired, unused) or expired, also who sends it and to which team: the inviter's
 * display name (never an address: the token's reader may be anyone holding the link) and the team's
 * domain. An invitation made by an administrator (admin CLI) or whose inviter was deactivated names no
 * one (`inviter` null); the team is then the invitee's domain.
 */
export async function validateInvite(deps: AccountsDeps, token: string): Promise<ValidateInviteResponse> {
  const read = await readInviteToken(deps.config.keys.invite, token);
  if (!read) throw new AppError('ERR_INVITE_INVALID');
  if (read.kind === 'team') {
    if (read.expired) return { email: '', status: 'expired' };
    // A link turned off or replaced reads as expired on the invite screen (ask for a new one).
    const off = await checkTeamInviter(deps, read).then(
      () => false,
      (error: unknown) => {
        if (error instanceof AppError && error.code === 'ERR_INVITE_LINK_OFF') return true;
        throw error;
      },
    );
    if (off) return { email: '', status: 'expired' };
    return { email: '', status: 'pending', ...(await sender(deps, read.inviterId, read.domain)) };
  }
  const invites = invitesRepository(deps.db);
  const row = await invites.find(read.jtiHash);
  // A good signature whose expiry passed is answered as expired even without its row: the address is
  // genuine, and the screen still needs whom to ask and whether sign-up would refuse the address.
  if (!row && !read.expired) throw new AppError('ERR_INVITE_INVALID');
  const email = row?.email ?? read.email;
  // An address that already has a confirmed account is answered as accepted, as sign-up would (409).
  const user = await usersRepository(deps.db).byEmail(email);
  if ((row && row.accepted_at !== null) || (user && !awaitsCodeStep(user))) return { email, status: 'accepted' };
  // Expired: who sent it is the one to ask for a new one (without the row: who last invited the address),
  // and a personal address can sign up no other way (the screen must not offer a sign-up that would refuse it).
  if (!row || read.expired || row.expires_at <= Date.now())
    return {
      email,
      status: 'expired',
      personal: await isPersonalAddress(email),
      ...(await sender(deps, row ? row.inviter_id : await invites.lastInviterOf(email), emailDomain(email))),
    };
  return { email, status: 'pending', ...(await sender(deps, row.inviter_id, emailDomain(email))) };
}

/** Who sends a pending or expired invitation (display name, or null) and the team's domain. */
async function sender(
  deps: AccountsDeps,
  inviterId: string | null,
  domain: string,
): Promise<{ inviter: string | null; team: string }> {
  const inviter = inviterId ? await usersRepository(deps.db).byId(inviterId) : undefined;
  if (!inviter?.active) return { inviter: null, team: domain };
  return { inviter: cleanDisplayName(`${inviter.first_name} ${inviter.last_name}`) || null, team: inviter.domain };
}

export type SignupInvite =
  | { kind: 'address'; jtiHash: string; inviterId: string | null }
  | { kind: 'team'; inviterId: string }
  /** A genuine token for another address or domain. */
  | { kind: 'mismatch' };

/** What an `invite_token` given at sign-up grants for this address (errors for bad, used or expired ones). */
export async function resolveSignupInvite(deps: AccountsDeps, token: string, email: string): Promise<SignupInvite> {
  const read = await readInviteToken(deps.config.keys.invite, token);
  if (!read) throw new AppError('ERR_INVITE_INVALID');
  if (read.kind === 'team') {
    if (read.domain !== emailDomain(email) || (await isPersonalAddress(read.domain))) return { kind: 'mismatch' };
    if (read.expired) throw new AppError('ERR_INVITE_EXPIRED');
    await checkTeamInviter(deps, read);
    return { kind: 'team', inviterId: read.inviterId };
  }
  if (normalizeEmail(read.email) !== email) return { kind: 'mismatch' };
  const row = await invitesRepository(deps.db).find(read.jtiHash);
  if (!row) throw new AppError('ERR_INVITE_INVALID');
  if (row.accepted_at !== null) throw new AppError('ERR_INVITE_ALREADY_ACCEPTED');
  if (read.expired || row.expires_at <= Date.now()) throw new AppError('ERR_INVITE_EXPIRED');
  return { kind: 'address', jtiHash: read.jtiHash, inviterId: row.inviter_id };
}
