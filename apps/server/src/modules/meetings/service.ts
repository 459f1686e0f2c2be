import { randomInt } from 'node:crypto';
import {
  PRESENCE_NAMES_SHOWN,
  PRESENCE_TTL_S,
  RoomNameSchema,
  checkDisplayName,
  cleanDisplayName,
  type LobbyStatus,
  type MeetingAccess,
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
import type { LobbyBus } from '../../plugins/lobby-bus.js';
import type { CounterStore } from '../../plugins/rate-limit.js';
import type { Mailer } from '../../plugins/mailer.js';
import { createLobby, type Asker, type Browser } from './lobby.js';
import { lobbyRepository } from './lobby-repository.js';
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

/** A token, or for a person who must wait where their request stands (and the lobby cookie to set). */
export type TokenOrWait = { token: MeetingTokenResponse } | { lobby: LobbyStatus; newCookie?: string };

export type PingIdentity = { kind: 'user'; user: SessionUser } | { kind: 'guest'; guestId: string };
/** Who reports presence: a signed-in user, or a guest with the meeting token our server gave it for the room. */
export type PresenceIdentity =
  | {
      kind: 'user';
      user: SessionUser;
      /** The lobby cookie: a person let in from the lobby proves it with it. */ lobbyCookie?: string | undefined;
    }
  | { kind: 'guest'; token: string };

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
  bus: LobbyBus;
  counters: CounterStore;
  mailer: Mailer;
}

export function createMeetingService(deps: MeetingServiceDeps) {
  const { db, config, signer, verifier, guests, presence } = deps;
  const repo = meetingsRepository(db.kysely);
  const lobby = createLobby(deps);
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
      access: lobby.accessOf(row),
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

  /**
   * Host: opens (or keeps alive) the session. Anyone else: only while the host's session is open.
   * Returns the open session's id.
   */
  async function admit(row: VideoconferenceRow, isHost: boolean): Promise<string> {
    const now = Date.now();
    const [open] = await repo.openSessions([row.id]);
    const session = await liveSession(open, now);
    if (session) {
      await repo.touchSession(session.id, now);
      return session.id;
    }
    if (!isHost) throw new AppError('ERR_SESSION_NOT_STARTED');
    // A concurrent host request may have opened it first: either way there is one open session now.
    await repo.startSession(row.id, now);
    const [started] = await repo.openSessions([row.id]);
    if (!started) throw new AppError('ERR_SESSION_NOT_STARTED');
    return started.id;
  }

  /** The open (live) session's id, if any, without keeping it alive. */
  async function openSessionId(row: VideoconferenceRow): Promise<string | undefined> {
    const [open] = await repo.openSessions([row.id]);
    return (await liveSession(open, Date.now()))?.id;
  }

  /** A meeting by its id as the lobby's calls name it: unknown or ill-formed → not found. */
  async function meeting(roomName: string): Promise<VideoconferenceRow | undefined> {
    const id = roomName.trim().toLowerCase();
    return RoomNameSchema.safeParse(id).success ? repo.find(id) : undefined;
  }

  /**
   * The token, or the lobby: the host opens the session; co-hosts and those the access level lets in
   * go straight in while it is open; anyone else asks (no token until admitted in this session).
   */
  async function enter(row: VideoconferenceRow, who: Asker, user: MeetingUser, browser: Browser): Promise<TokenOrWait> {
    const how = await lobby.entry(row, { ...who, invite: browser.invite });
    const sessionId = await admit(row, how === 'host');
    if (how === 'ask') {
      const asked = await lobby.ask(row, sessionId, who, browser);
      if (!asked.admitted) return { lobby: asked.lobby, ...(asked.newCookie ? { newCookie: asked.newCookie } : {}) };
    }
    return { token: await token(row, user, how === 'host' || how === 'cohost') };
  }

  async function token(row: VideoconferenceRow, user: MeetingUser, moderator: boolean): Promise<MeetingTokenResponse> {
    const signed = await requireSigner()({ room: row.id, user, moderator });
    return { token: signed.token, moderator, domain: signed.domain, room: signed.room };
  }

  return {
    async create(hostId: string, title: string | undefined, access?: MeetingAccess): Promise<Videoconference> {
      if (access && !config.meet.access.allowed.includes(access)) throw new AppError('ERR_MEETING_ACCESS_NOT_ALLOWED');
      const row: VideoconferenceRow = {
        id: newRoomName(),
        host_id: hostId,
        // Every guest reads the title (the public GET, the room page): the contract's one name rule.
        title: title?.trim() ? requireDisplayName(title, 'title') : '',
        created_at: Date.now(),
        ended_at: null,
        access: access ?? config.meet.access.default,
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

    async publicView(roomName: string, user: SessionUser | null) {
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
      const who: Asker = user ? { kind: 'user', user, name: '' } : { kind: 'guest', guestId: '', name: '' };
      const entry = await lobby.entry(row, who);
      const join = entry === 'ask' ? 'ask' : 'direct';
      return {
        _id,
        title,
        status,
        host_name: title ? '' : await accountFirstName(row.host_id),
        ...(participants ? { participants } : {}),
        join,
        // The pre-join of the one whose Join starts the meeting must not tell them to wait for the host.
        ...(user ? { is_host: entry === 'host' } : {}),
      } as const;
    },

    /**
     * "I am in the room" from the room page, every PRESENCE_HEARTBEAT_S while joined: the person counts as
     * here for PRESENCE_TTL_S. Only someone who can be in the room: the host, or anyone while the host's
     * session is open.
     */
    async heartbeat(who: PresenceIdentity, roomName: string): Promise<void> {
      const row = await usable(roomName);
      const me = await presenceOf(who, row.id);
      const entry = who.kind === 'user' ? await lobby.entry(row, { kind: 'user', user: who.user, name: '' }) : 'direct';
      if (entry !== 'host') {
        const [open] = await repo.openSessions([row.id]);
        const session = await liveSession(open, Date.now());
        if (!session) throw new AppError('ERR_SESSION_NOT_STARTED');
        // A signed-in person who must ask counts as here only once let in, from the browser let in
        // (a guest shows the meeting token, which only an admitted guest has).
        if (
          who.kind === 'user' &&
          entry === 'ask' &&
          !(await lobby.admitted(row, session.id, who.user.id, who.lobbyCookie))
        ) {
          throw new AppError('ERR_FORBIDDEN');
        }
      }
      const admitter = entry === 'host' || entry === 'cohost';
      const arriving = admitter && !(await presenceCall(() => presence.list(row.id))).some((p) => p.id === me.id);
      await presenceCall(() => presence.beat(row.id, me, PRESENCE_TTL_S * 1000));
      // Someone who can let people in arrived: the waiting pages stop reading "Nobody can let you in yet".
      if (arriving) await deps.bus.publish(row.id).catch(() => undefined);
    },

    /** "I left" (the room page on hangup or when the page goes away): the person stops counting at once. */
    async leave(who: PresenceIdentity, roomName: string): Promise<void> {
      const id = roomName.trim().toLowerCase();
      if (!RoomNameSchema.safeParse(id).success) throw new AppError('ERR_INVITE_NOT_VALID');
      const me = await presenceOf(who, id);
      await presenceCall(() => presence.leave(id, me.id));
      // Waiting people may now read "Nobody can let you in yet": best effort, the leave is done.
      if (who.kind === 'user') await deps.bus.publish(id).catch(() => undefined);
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

    /**
     * Ends the current session: the room stays, the next participants wait for the host again. A co-host
     * may end it too: as a Jitsi moderator they end the conference anyway, and our session must follow.
     */
    async endSession(userId: string, id: string): Promise<Videoconference> {
      const row = await owned(userId, id).catch(async (error: unknown) => {
        const found = await repo.find(id.toLowerCase());
        if (found && (await lobbyRepository(db.kysely).cohostIds(found.id)).includes(userId)) return found;
        throw error;
      });
      const now = Date.now();
      const [open] = await repo.openSessions([row.id]);
      if (open) await repo.endSession(open.id, now, 'host');
      return view(row, undefined, now);
    },

    async userToken(
      user: SessionUser,
      roomName: string,
      displayName: string | undefined,
      browser: Browser,
    ): Promise<TokenOrWait> {
      requireSigner();
      const row = await usable(roomName);
      const who = await db.kysely
        .selectFrom('users')
        .select(['first_name', 'last_name', 'email'])
        .where('id', '=', user.id)
        .executeTakeFirst();
      const name =
        cleanName(displayName) ??
        cleanName(`${who?.first_name ?? ''} ${who?.last_name ?? ''}`) ??
        (user.email.split('@')[0] || user.email);
      return enter(row, { kind: 'user', user, name }, { id: user.id, name, email: user.email }, browser);
    },

    async guestToken(
      guestId: string,
      roomName: string,
      displayName: string | undefined,
      browser: Browser,
    ): Promise<TokenOrWait> {
      requireSigner();
      const row = await usable(roomName);
      const guest = await knownGuest(guestId);
      const name = cleanName(displayName) ?? cleanName(guest.name) ?? 'Guest';
      return enter(row, { kind: 'guest', guestId: guest.id, name }, { id: `guest-${guest.id}`, name }, browser);
    },

    // The lobby's calls: the meeting by id, then the lobby (which checks who may do what).
    lobby: {
      async mine(roomName: string, cookie: string | undefined) {
        const row = await meeting(roomName);
        if (!row) throw new AppError('ERR_LOBBY_REQUEST_NOT_FOUND');
        return lobby.mine(row, cookie, await openSessionId(row));
      },
      touch: lobby.touch,
      async cancel(roomName: string, cookie: string | undefined) {
        const row = await meeting(roomName);
        if (!row) throw new AppError('ERR_LOBBY_REQUEST_NOT_FOUND');
        await lobby.cancel(row, cookie);
      },
      async list(user: SessionUser, roomName: string) {
        return lobby.list(user, await meeting(roomName));
      },
      async decide(user: SessionUser, roomName: string, requestId: string | undefined, decision: 'admit' | 'deny') {
        const row = await meeting(roomName);
        const sessionId = row ? await openSessionId(row) : undefined;
        return lobby.decide(user, row, sessionId, requestId, decision);
      },
      async setAccess(user: SessionUser, roomName: string, access: MeetingAccess): Promise<Videoconference> {
        const row = await meeting(roomName);
        await lobby.setAccess(user, row, access);
        return view({ ...row!, access }, undefined, Date.now());
      },
      async invitees(hostId: string, roomName: string) {
        return lobby.invitees(await owned(hostId, roomName));
      },
      async invite(host: SessionUser, roomName: string, emails: string[]) {
        const row = await owned(host.id, roomName);
        const who = await db.kysely
          .selectFrom('users')
          .select(['first_name', 'last_name'])
          .where('id', '=', host.id)
          .executeTakeFirst();
        const name = cleanName(`${who?.first_name ?? ''} ${who?.last_name ?? ''}`) ?? host.email;
        await lobby.invite(row, emails, { name, address: host.email });
        return lobby.invitees(row);
      },
      async revokeInvitee(hostId: string, roomName: string, inviteeId: string) {
        const row = await owned(hostId, roomName);
        await lobby.revokeInvitee(row, inviteeId);
        return lobby.invitees(row);
      },
      async cohosts(hostId: string, roomName: string) {
        return lobby.cohosts(await owned(hostId, roomName));
      },
      async addCohost(hostId: string, roomName: string, email: string) {
        const row = await owned(hostId, roomName);
        await lobby.addCohost(row, email);
        return lobby.cohosts(row);
      },
      async removeCohost(hostId: string, roomName: string, userId: string) {
        const row = await owned(hostId, roomName);
        await lobby.removeCohost(row, userId);
        return lobby.cohosts(row);
      },
      /** The meeting's id as its streams subscribe to it, for an admitter (404 otherwise). */
      async admitterMeeting(user: SessionUser, roomName: string): Promise<string> {
        return (await lobby.asAdmitter(user, await meeting(roomName))).id;
      },
      async meetingOf(roomName: string): Promise<string> {
        const row = await meeting(roomName);
        if (!row) throw new AppError('ERR_LOBBY_REQUEST_NOT_FOUND');
        return row.id;
      },
      subscribe: lobby.subscribe,
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
