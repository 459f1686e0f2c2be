import { randomInt } from 'node:crypto';
import {
  PRESENCE_NAMES_SHOWN,
  PRESENCE_TTL_S,
  RoomNameSchema,
  checkDisplayName,
  cleanDisplayName,
  type MeetingTokenResponse,
  type SessionPingResponse,
  type Videoconference,
} from '@suite/contract';
import { AppError, unavailable } from '../../errors.js';
import { requireDisplayName } from '../../names.js';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { SessionUser } from '../../plugins/auth.js';
import { PresenceUnavailable, type Presence, type PresenceStore } from '../../plugins/presence.js';
import type { GuestService } from '../guests/index.js';
import type { MeetingTokenSigner, MeetingTokenVerifier, MeetingUser } from './jitsi-token.js';
import { meetingsRepository, type SessionRow, type VideoconferenceRow } from './repository.js';

const LIST_LIMIT = 50;
/** Pings come at a third of the idle limit (at most every 5 minutes), so two may be lost before it ends. */
const MAX_PING_INTERVAL_S = 300;

/**
 * A name asked for by the meeting link (not typed in our forms): the contract's display-name rule with
 * forbidden characters removed; empty → none.
 */
const cleanName = (name: string | undefined): string | undefined => cleanDisplayName(name ?? '') || undefined;

export type PingIdentity = { kind: 'user'; user: SessionUser } | { kind: 'guest'; guestId: string };
/** Who reports presence: a signed-in user, or a guest with the meeting token our server gave it for the room. */
export type PresenceIdentity = { kind: 'user'; user: SessionUser } | { kind: 'guest'; token: string };

/** The first word of a name under the one name rule, never an address; '' when there is none. */
function firstName(name: string): string {
  const check = checkDisplayName(name.trim().split(/\s+/)[0] ?? '');
  return check.ok && !check.value.includes('@') ? check.value : '';
}

/** What the public view says of the people in the room: how many, and the first to arrive by first name. */
const participantsOf = (list: Presence[]) => ({
  count: list.length,
  names: list
    .map((p) => p.name)
    .filter(Boolean)
    .slice(0, PRESENCE_NAMES_SHOWN),
});

/** Presence is best-effort: its store down is a 503 to the room page (it beats again later), never a 500. */
async function presenceCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PresenceUnavailable) throw unavailable('ERR_SERVICE_UNAVAILABLE', error);
    throw error;
  }
}
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Room names like "abc-defg-hij": lowercase because Jitsi lowercases room names before it compares them
 * with the token's `room` claim; 10 random letters (26^10) so that links cannot be guessed.
 */
function newRoomName(): string {
  const letters = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7)}`;
}

export interface MeetingServiceDeps {
  db: Db;
  config: AppConfig;
  signer: MeetingTokenSigner | undefined;
  verifier: MeetingTokenVerifier | undefined;
  guests: GuestService;
  presence: PresenceStore;
}

export function createMeetingService({ db, config, signer, verifier, guests, presence }: MeetingServiceDeps) {
  const repo = meetingsRepository(db.kysely);
  const idleMs = config.meet.idleMinutes * 60_000;
  const pingIntervalS = Math.max(1, Math.min(MAX_PING_INTERVAL_S, Math.floor(idleMs / 3000)));

  /** The open session, closing it first when it has been idle longer than the limit. */
  async function liveSession(open: SessionRow | undefined, now: number): Promise<SessionRow | undefined> {
    if (!open) return undefined;
    if (now - open.last_activity_at <= idleMs) return open;
    await repo.endSession(open.id, open.last_activity_at + idleMs, 'idle');
    return undefined;
  }

  async function view(row: VideoconferenceRow, open: SessionRow | undefined, now: number): Promise<Videoconference> {
    const session = row.ended_at === null ? await liveSession(open, now) : undefined;
    return {
      _id: row.id,
      // Titles stored before the rule are shown without the characters it refuses.
      title: cleanDisplayName(row.title),
      host: row.host_id,
      status: row.ended_at !== null ? 'ended' : session ? 'started' : 'not_started',
      link: `${config.publicUrl}/meet/${row.id}`,
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  /** Unknown shape or ended → 'Invite is not valid'; well-formed but unknown → not found. */
  async function usable(roomName: string): Promise<VideoconferenceRow> {
    const id = roomName.trim().toLowerCase();
    if (!RoomNameSchema.safeParse(id).success) throw new AppError('ERR_INVITE_NOT_VALID');
    const row = await repo.find(id);
    if (!row) throw new AppError('ERR_VIDEOCONFERENCE_NOT_FOUND');
    if (row.ended_at !== null) throw new AppError('ERR_INVITE_NOT_VALID');
    return row;
  }

  async function owned(hostId: string, id: string): Promise<VideoconferenceRow> {
    const row = await repo.find(id.toLowerCase());
    // Someone else's conference is answered like an unknown one: ids are not confirmed to strangers.
    if (!row || row.host_id !== hostId) throw new AppError('ERR_VIDEOCONFERENCE_NOT_FOUND');
    return row;
  }

  async function knownGuest(guestId: string) {
    const guest = await guests.find(guestId);
    if (!guest) throw new AppError('ERR_VALIDATION', { details: [{ path: 'guest_id', message: 'unknown guest' }] });
    return guest;
  }

  /** An account's first name as guests may read it (the host's, the people in the room): the one name rule, no address. */
  async function accountFirstName(userId: string): Promise<string> {
    const check = checkDisplayName(await repo.firstNameOf(userId));
    return check.ok && !check.value.includes('@') ? check.value : '';
  }

  /**
   * The presence entry of the caller in room `id`. A guest's id alone is not tied to any meeting, so a guest
   * shows the meeting token this server signed for this very room; a token for another room, another
   * deployment's or a `jwt` link's is refused. The name shown is the account's or the guest record's
   * first name, never one the request gives.
   */
  async function presenceOf(who: PresenceIdentity, id: string): Promise<Omit<Presence, 'since'>> {
    if (who.kind === 'user') return { id: `u:${who.user.id}`, name: await accountFirstName(who.user.id) };
    const claims = verifier ? await verifier(who.token) : null;
    const guest =
      claims && claims.room === id && claims.userId.startsWith('guest-')
        ? await guests.find(claims.userId.slice('guest-'.length))
        : undefined;
    if (!guest) throw new AppError('ERR_INVALID_ACCESS_TOKEN');
    return { id: `g:${guest.id}`, name: firstName(guest.name) };
  }

  function requireSigner(): MeetingTokenSigner {
    if (!signer) throw new AppError('ERR_MEETINGS_NOT_CONFIGURED');
    return signer;
  }

  /** Host: opens (or keeps alive) the session. Anyone else: only while the host's session is open. */
  async function admit(row: VideoconferenceRow, isHost: boolean): Promise<void> {
    const now = Date.now();
    const [open] = await repo.openSessions([row.id]);
    const session = await liveSession(open, now);
    if (session) return repo.touchSession(session.id, now);
    if (!isHost) throw new AppError('ERR_SESSION_NOT_STARTED');
    // A concurrent host request may have opened it first: either way there is one open session now.
    await repo.startSession(row.id, now);
  }

  async function token(row: VideoconferenceRow, user: MeetingUser, moderator: boolean): Promise<MeetingTokenResponse> {
    const signed = await requireSigner()({ room: row.id, user, moderator });
    return { token: signed.token, moderator, domain: signed.domain, room: signed.room };
  }

  return {
    async create(hostId: string, title: string | undefined): Promise<Videoconference> {
      const row: VideoconferenceRow = {
        id: newRoomName(),
        host_id: hostId,
        // Every guest reads the title (the public GET, the room page): the contract's one name rule.
        title: title?.trim() ? requireDisplayName(title, 'title') : '',
        created_at: Date.now(),
        ended_at: null,
      };
      await repo.insert(row);
      return view(row, undefined, row.created_at);
    },

    async list(hostId: string): Promise<Videoconference[]> {
      const rows = await repo.listByHost(hostId, LIST_LIMIT);
      const open = await repo.openSessions(rows.map((r) => r.id));
      const now = Date.now();
      return Promise.all(
        rows.map((r) =>
          view(
            r,
            open.find((s) => s.videoconference_id === r.id),
            now,
          ),
        ),
      );
    },

    async publicView(roomName: string) {
      const id = roomName.trim().toLowerCase();
      if (!RoomNameSchema.safeParse(id).success) throw new AppError('ERR_INVITE_NOT_VALID');
      const row = await repo.find(id);
      if (!row) throw new AppError('ERR_VIDEOCONFERENCE_NOT_FOUND');
      const [open] = await repo.openSessions([row.id]);
      const { _id, title, status } = await view(row, open, Date.now());
      // Presence is best-effort: with its store down the view says nothing of who is in the room.
      const participants =
        status === 'ended'
          ? undefined
          : await presence.list(row.id).then(participantsOf, (error: unknown) => {
              if (error instanceof PresenceUnavailable) return undefined;
              throw error;
            });
      return {
        _id,
        title,
        status,
        host_name: title ? '' : await accountFirstName(row.host_id),
        ...(participants ? { participants } : {}),
      };
    },

    /**
     * "I am in the room" from the room page, every PRESENCE_HEARTBEAT_S while joined: the person counts as
     * here for PRESENCE_TTL_S. Only someone who can be in the room: the host, or anyone while the host's
     * session is open.
     */
    async heartbeat(who: PresenceIdentity, roomName: string): Promise<void> {
      const row = await usable(roomName);
      const me = await presenceOf(who, row.id);
      if (!(who.kind === 'user' && row.host_id === who.user.id)) {
        const [open] = await repo.openSessions([row.id]);
        if (!(await liveSession(open, Date.now()))) throw new AppError('ERR_SESSION_NOT_STARTED');
      }
      await presenceCall(() => presence.beat(row.id, me, PRESENCE_TTL_S * 1000));
    },

    /** "I left" (the room page on hangup or when the page goes away): the person stops counting at once. */
    async leave(who: PresenceIdentity, roomName: string): Promise<void> {
      const id = roomName.trim().toLowerCase();
      if (!RoomNameSchema.safeParse(id).success) throw new AppError('ERR_INVITE_NOT_VALID');
      const me = await presenceOf(who, id);
      await presenceCall(() => presence.leave(id, me.id));
    },

    /** Ends the conference for good: its link stops working and its session closes. */
    async end(hostId: string, id: string): Promise<Videoconference> {
      const row = await owned(hostId, id);
      const now = Date.now();
      const [open] = await repo.openSessions([row.id]);
      if (open) await repo.endSession(open.id, now, 'closed');
      await repo.end(row.id, now);
      return view({ ...row, ended_at: row.ended_at ?? now }, undefined, now);
    },

    /** Ends the current session: the room stays, the next participants wait for the host again. */
    async endSession(hostId: string, id: string): Promise<Videoconference> {
      const row = await owned(hostId, id);
      const now = Date.now();
      const [open] = await repo.openSessions([row.id]);
      if (open) await repo.endSession(open.id, now, 'host');
      return view(row, undefined, now);
    },

    async userToken(user: SessionUser, roomName: string, displayName?: string): Promise<MeetingTokenResponse> {
      requireSigner();
      const row = await usable(roomName);
      const isHost = row.host_id === user.id;
      await admit(row, isHost);
      const who = await db.kysely
        .selectFrom('users')
        .select(['first_name', 'last_name', 'email'])
        .where('id', '=', user.id)
        .executeTakeFirst();
      const name =
        cleanName(displayName) ??
        cleanName(`${who?.first_name ?? ''} ${who?.last_name ?? ''}`) ??
        (user.email.split('@')[0] || user.email);
      return token(row, { id: user.id, name, email: user.email }, isHost);
    },

    async guestToken(guestId: string, roomName: string, displayName?: string): Promise<MeetingTokenResponse> {
      requireSigner();
      const row = await usable(roomName);
      const guest = await knownGuest(guestId);
      await admit(row, false);
      return token(
        row,
        { id: `guest-${guest.id}`, name: cleanName(displayName) ?? cleanName(guest.name) ?? 'Guest' },
        false,
      );
    },

    /**
     * "Still in the room": keeps the open session from reaching the idle limit while people are joined
     * (a long meeting asks for no new tokens). The host's ping reopens a session that has ended, as the
     * host's token request would; anyone else only learns that it has ended.
     */
    async ping(who: PingIdentity, roomName: string): Promise<SessionPingResponse> {
      const row = await usable(roomName);
      const isHost = who.kind === 'user' && row.host_id === who.user.id;
      if (who.kind === 'guest') await knownGuest(who.guestId);
      try {
        await admit(row, isHost);
      } catch (error) {
        if (error instanceof AppError && error.code === 'ERR_SESSION_NOT_STARTED') {
          return { status: 'not_started', ping_interval_s: pingIntervalS };
        }
        throw error;
      }
      return { status: 'started', ping_interval_s: pingIntervalS };
    },
  };
}

export type MeetingService = ReturnType<typeof createMeetingService>;
