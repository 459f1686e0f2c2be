import { createHash, randomBytes } from 'node:crypto';
import {
  LOBBY_ASK_WINDOW_S,
  LOBBY_ASKS_PER_ADDRESS,
  LOBBY_MAX_DENIALS,
  LOBBY_REQUEST_TTL_S,
  LOBBY_RETENTION_DAYS,
  LANGUAGES,
  MEETING_MAX_COHOSTS,
  MEETING_MAX_INVITEES,
  checkDisplayName,
  isEmailShape,
  normalizeEmail,
  type Invitee,
  type Language,
  type Cohost,
  type LobbyRequestList,
  type LobbyStatus,
  type MeetingAccess,
} from '@suite/contract';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import { AppError, unavailable } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import type { CounterStore } from '../../plugins/rate-limit.js';
import type { Mailer } from '../../plugins/mailer.js';
import { LobbyBusUnavailable, type LobbyBus } from '../../plugins/lobby-bus.js';
import { PresenceUnavailable, type PresenceStore } from '../../plugins/presence.js';
import { lobbyRepository, type LobbyRequestRow } from './lobby-repository.js';
import type { VideoconferenceRow } from './repository.js';

const TTL_MS = LOBBY_REQUEST_TTL_S * 1000;

/** The lobby cookie's value is kept by the browser alone; the table holds its SHA-256. */
const browserHash = (value: string) => createHash('sha256').update(value).digest('hex');
const newBrowserValue = () => randomBytes(32).toString('base64url');

/** Whoever asks for a meeting token. */
export type Asker = (
  { kind: 'user'; user: SessionUser; name: string } | { kind: 'guest'; guestId: string; name: string }
) & {
  /** An invitee's personal link token, when the person came by it. */
  invite?: string | undefined;
};

/** The browser an ask comes from: its lobby cookie (if any) and its address (for the limits). */
export interface Browser {
  cookie: string | undefined;
  ip: string;
  /** An invitee's personal link token (the mailed link's `?invite=`), when the page came by one. */
  invite?: string | undefined;
}

/** How a person gets into a meeting: the host, a co-host, straight in, or by asking. */
export type Entry = 'host' | 'cohost' | 'direct' | 'ask';

export type AskResult = { admitted: true } | { admitted: false; lobby: LobbyStatus; newCookie?: string };

const domainOf = (email: string) => normalizeEmail(email).split('@')[1] ?? '';

function firstName(name: string): string {
  const check = checkDisplayName(name.trim().split(/\s+/)[0] ?? '');
  return check.ok && !check.value.includes('@') ? check.value : '';
}

export interface LobbyDeps {
  db: Db;
  config: AppConfig;
  bus: LobbyBus;
  presence: PresenceStore;
  counters: CounterStore;
  mailer: Mailer;
}

/**
 * The lobby: who goes straight in, requests to join bound to a browser, and the host's and co-hosts'
 * decisions. The database is the truth; the bus only tells every instance's streams to read it again.
 * Every change first checks that the bus can carry it: with Redis down nothing is decided (503).
 */
export function createLobby({ db, config, bus, presence, counters, mailer }: LobbyDeps) {
  const repo = lobbyRepository(db.kysely);
  const fresh = (now: number) => now - TTL_MS;

  /** A level the operator no longer allows counts as the default, so forbidding `open` closes old meetings too. */
  const accessOf = (row: VideoconferenceRow): MeetingAccess => {
    const level = row.access as MeetingAccess;
    return config.meet.access.allowed.includes(level) ? level : config.meet.access.default;
  };

  /** Nothing is decided that the bus could not tell: with Redis down, 503 and no change. */
  async function requireBus(): Promise<void> {
    try {
      await bus.check();
    } catch (error) {
      if (error instanceof LobbyBusUnavailable) throw unavailable('ERR_SERVICE_UNAVAILABLE', error);
      throw error;
    }
  }

  async function publish(meetingId: string): Promise<void> {
    try {
      await bus.publish(meetingId);
    } catch (error) {
      if (error instanceof LobbyBusUnavailable) throw unavailable('ERR_SERVICE_UNAVAILABLE', error);
      throw error;
    }
  }

  async function entry(row: VideoconferenceRow, who: Asker): Promise<Entry> {
    if (who.kind === 'user') {
      if (row.host_id === who.user.id) return 'host';
      if ((await repo.cohostIds(row.id)).includes(who.user.id)) return 'cohost';
    }
    const access = accessOf(row);
    if (access === 'open') return 'direct';
    // An invitee's personal link lets its holder past the lobby (until the host revokes it).
    if (who.invite && (await repo.useInvite(row.id, browserHash(who.invite), Date.now()))) return 'direct';
    if (access === 'organisation' && who.kind === 'user') {
      const hostDomain = domainOf(await repo.emailOf(row.host_id));
      if (hostDomain && domainOf(who.user.email) === hostDomain) return 'direct';
    }
    return 'ask';
  }

  /** Who can let people in now: the first admitter in the room (by presence), else the host, by first name. */
  async function admitterOf(row: VideoconferenceRow): Promise<{ name: string; present: boolean }> {
    const admitters = [row.host_id, ...(await repo.cohostIds(row.id))];
    const nameOf = async (id: string) => {
      const user = await db.kysely.selectFrom('users').select('first_name').where('id', '=', id).executeTakeFirst();
      return firstName(user?.first_name ?? '');
    };
    let here: Set<string>;
    try {
      here = new Set((await presence.list(row.id)).map((p) => p.id));
    } catch (error) {
      // Presence unknown: do not tell anyone that nobody can let them in.
      if (error instanceof PresenceUnavailable) return { name: await nameOf(row.host_id), present: true };
      throw error;
    }
    const present = admitters.find((id) => here.has(`u:${id}`));
    return { name: await nameOf(present ?? row.host_id), present: present !== undefined };
  }

  async function statusOf(
    row: VideoconferenceRow,
    request: LobbyRequestRow,
    openSessionId: string | undefined,
  ): Promise<LobbyStatus> {
    const now = Date.now();
    let status = request.status;
    if (status === 'waiting' && request.last_seen_at < fresh(now)) {
      await repo.expire(row.id, fresh(now));
      status = 'expired';
    }
    // An admission holds for the session it was given in: a meeting started again asks again.
    if (status === 'admitted' && request.session_id !== openSessionId) status = 'expired';
    const admitter = await admitterOf(row);
    const denials = Math.max(request.denials, await repo.denialsOf(row.id, request.subject));
    return {
      status,
      waiting_for: admitter.name,
      admitter_present: admitter.present,
      can_ask_again: denials < LOBBY_MAX_DENIALS,
    };
  }

  async function limitAsks(ip: string): Promise<void> {
    const max = Math.max(1, Math.round(LOBBY_ASKS_PER_ADDRESS * config.rateLimitScale));
    const { count, ttlMs } = await counters.hit(`lobby-ask:ip:${ip}`, LOBBY_ASK_WINDOW_S * 1000);
    if (count > max) throw new AppError('ERR_RATE_LIMITED', { retryAfterS: ttlMs / 1000 });
  }

  function identity(who: Asker): Pick<LobbyRequestRow, 'kind' | 'subject' | 'name' | 'domain'> {
    return who.kind === 'user'
      ? { kind: 'user', subject: who.user.id, name: who.name, domain: domainOf(who.user.email) }
      : { kind: 'guest', subject: who.guestId, name: who.name, domain: '' };
  }

  /** The meeting row for an admitter (host or co-host); anyone else reads "not found". */
  async function asAdmitter(user: SessionUser, row: VideoconferenceRow | undefined): Promise<VideoconferenceRow> {
    if (row && row.ended_at === null) {
      if (row.host_id === user.id || (await repo.cohostIds(row.id)).includes(user.id)) return row;
    }
    throw new AppError('ERR_VIDEOCONFERENCE_NOT_FOUND');
  }

  return {
    entry,
    accessOf,

    /**
     * A person who must wait asks (the token calls, while the host's session `sessionId` is open):
     * admitted in this session → `admitted`; otherwise the browser's request is made, renewed or read,
     * and the person learns where it stands. No token is given here.
     */
    async ask(row: VideoconferenceRow, sessionId: string, who: Asker, browser: Browser): Promise<AskResult> {
      const now = Date.now();
      const cookie = browser.cookie ?? newBrowserValue();
      const newCookie = browser.cookie ? undefined : cookie;
      const hash = browserHash(cookie);
      const me = identity(who);
      const existing = await repo.byBrowser(row.id, hash);
      const sameSubject = existing?.subject === me.subject;
      if (existing && sameSubject && existing.status === 'admitted' && existing.session_id === sessionId) {
        return { admitted: true };
      }
      if (existing && sameSubject && existing.status === 'waiting' && existing.last_seen_at >= fresh(now)) {
        await repo.touch(existing.id, now);
        return { admitted: false, lobby: await statusOf(row, { ...existing, last_seen_at: now }, sessionId) };
      }
      // A new request (first, or again after a denial, a cancel, an expiry, another session).
      const denials = Math.max(existing?.denials ?? 0, await repo.denialsOf(row.id, me.subject));
      if (denials >= LOBBY_MAX_DENIALS) throw new AppError('ERR_LOBBY_CLOSED');
      await requireBus();
      await limitAsks(browser.ip);
      if (existing) {
        await repo.reopen(existing.id, me, now);
      } else {
        try {
          await repo.insert({
            id: randomBytes(16).toString('hex'),
            videoconference_id: row.id,
            browser_hash: hash,
            ...me,
            status: 'waiting',
            denials: 0,
            session_id: null,
            created_at: now,
            last_seen_at: now,
            decided_at: null,
          });
        } catch (error) {
          // The same browser asked twice at once: the other ask made the request.
          if (!isUniqueViolation(error)) throw error;
        }
      }
      await publish(row.id);
      const stored = await repo.byBrowser(row.id, hash);
      if (!stored) throw new AppError('ERR_LOBBY_REQUEST_NOT_FOUND');
      return { admitted: false, lobby: await statusOf(row, stored, sessionId), ...(newCookie ? { newCookie } : {}) };
    },

    /** Was this browser let in, as this person, during session `sessionId`? */
    async admitted(row: VideoconferenceRow, sessionId: string, subject: string, cookie: string | undefined) {
      const request = cookie ? await repo.byBrowser(row.id, browserHash(cookie)) : undefined;
      return request?.status === 'admitted' && request.session_id === sessionId && request.subject === subject;
    },

    /** This browser's request in meeting `row` (404 when it has none). */
    async mine(row: VideoconferenceRow, cookie: string | undefined, openSessionId: string | undefined) {
      const request = cookie ? await repo.byBrowser(row.id, browserHash(cookie)) : undefined;
      if (!request) throw new AppError('ERR_LOBBY_REQUEST_NOT_FOUND');
      return { id: request.id, status: await statusOf(row, request, openSessionId) };
    },

    /** The waiting page is still there (its stream is open): the request does not expire. */
    async touch(requestId: string): Promise<void> {
      await repo.touch(requestId, Date.now());
    },

    async cancel(row: VideoconferenceRow, cookie: string | undefined): Promise<void> {
      const request = cookie ? await repo.byBrowser(row.id, browserHash(cookie)) : undefined;
      if (!request) throw new AppError('ERR_LOBBY_REQUEST_NOT_FOUND');
      await requireBus();
      await repo.cancel(request.id, Date.now());
      await publish(row.id);
    },

    asAdmitter,

    async list(user: SessionUser, row: VideoconferenceRow | undefined): Promise<LobbyRequestList> {
      const meeting = await asAdmitter(user, row);
      const rows = await repo.waiting(meeting.id, fresh(Date.now()));
      return {
        access: accessOf(meeting),
        requests: rows.map((r) => ({
          id: r.id,
          name: r.name,
          signed_in: r.kind === 'user',
          domain: r.domain,
          since: new Date(r.created_at).toISOString(),
        })),
      };
    },

    /**
     * Admits or denies one waiting request of this meeting, or admits all. A request id of another
     * meeting, or one no longer waiting, is "not found" and changes nothing.
     */
    async decide(
      user: SessionUser,
      row: VideoconferenceRow | undefined,
      openSessionId: string | undefined,
      requestId: string | undefined,
      decision: 'admit' | 'deny',
    ): Promise<number> {
      const meeting = await asAdmitter(user, row);
      if (decision === 'admit' && !openSessionId) throw new AppError('ERR_SESSION_NOT_STARTED');
      await requireBus();
      const now = Date.now();
      const decided = await repo.decide(
        meeting.id,
        requestId,
        decision === 'admit' ? { status: 'admitted', sessionId: openSessionId! } : { status: 'denied' },
        fresh(now),
        now,
      );
      if (requestId !== undefined && decided === 0) throw new AppError('ERR_LOBBY_REQUEST_NOT_FOUND');
      if (decided > 0) await publish(meeting.id);
      return decided;
    },

    async setAccess(user: SessionUser, row: VideoconferenceRow | undefined, access: MeetingAccess): Promise<void> {
      const meeting = await asAdmitter(user, row);
      if (!config.meet.access.allowed.includes(access)) throw new AppError('ERR_MEETING_ACCESS_NOT_ALLOWED');
      await requireBus();
      await repo.setAccess(meeting.id, access);
      await publish(meeting.id);
    },

    async cohosts(row: VideoconferenceRow): Promise<Cohost[]> {
      const rows = await repo.cohosts(row.id);
      return rows.map((r) => ({
        id: r.id,
        name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
        email: r.email,
      }));
    },

    /** Host only (the caller checked): a signed-in person of the host's domain, by address. */
    async addCohost(row: VideoconferenceRow, email: string): Promise<void> {
      const hostDomain = domainOf(await repo.emailOf(row.host_id));
      const address = normalizeEmail(email);
      const user = domainOf(address) === hostDomain ? await repo.userByEmail(address) : undefined;
      if (!user || user.id === row.host_id) throw new AppError('ERR_COHOST_NOT_ALLOWED');
      if ((await repo.cohostIds(row.id)).length >= MEETING_MAX_COHOSTS) {
        throw new AppError('ERR_COHOST_NOT_ALLOWED');
      }
      await repo.addCohost(row.id, user.id, Date.now());
    },

    async removeCohost(row: VideoconferenceRow, userId: string): Promise<void> {
      if (!(await repo.removeCohost(row.id, userId))) throw new AppError('ERR_NOT_FOUND');
    },

    async invitees(row: VideoconferenceRow): Promise<Invitee[]> {
      return (await repo.invitees(row.id)).map((r) => ({
        id: r.id,
        email: r.email,
        invited_at: new Date(r.created_at).toISOString(),
        joined_at: r.joined_at === null ? null : new Date(r.joined_at).toISOString(),
        revoked: r.revoked_at !== null,
      }));
    },

    /**
     * Host only (the caller checked): invites addresses; each new one gets a mail through the outbox, in
     * its account's language if it has one (else the host's), with a personal link past the lobby.
     * An address invited before is left as it is (revoked stays revoked).
     */
    async invite(row: VideoconferenceRow, emails: string[], host: { name: string; address: string }): Promise<void> {
      const addresses = [...new Set(emails.map(normalizeEmail))];
      if (addresses.some((a) => !isEmailShape(a))) {
        throw new AppError('ERR_VALIDATION', { details: [{ path: 'emails', message: 'not an e-mail address' }] });
      }
      const known = await repo.invitees(row.id);
      const fresh = addresses.filter((a) => !known.some((k) => k.email === a));
      if (known.length + fresh.length > MEETING_MAX_INVITEES) throw new AppError('ERR_INVITEE_LIMIT');
      const hostLanguage = (await repo.languageOf(host.address))?.language;
      const pick = (l: string | undefined) =>
        (LANGUAGES as readonly string[]).includes(l ?? '') ? (l as Language) : undefined;
      await db.kysely.transaction().execute(async (trx) => {
        const inTrx = lobbyRepository(trx);
        for (const email of fresh) {
          const token = randomBytes(24).toString('base64url');
          const added = await inTrx.addInvitee({
            id: randomBytes(12).toString('hex'),
            videoconference_id: row.id,
            email,
            token_hash: browserHash(token),
            created_at: Date.now(),
            revoked_at: null,
            joined_at: null,
          });
          if (!added) continue;
          const language = pick((await inTrx.languageOf(email))?.language) ?? pick(hostLanguage) ?? 'en';
          await mailer.queue(trx, {
            kind: 'meeting-invite',
            to: email,
            language,
            host,
            title: row.title || host.name,
            link: `${config.publicUrl}/meet/${row.id}?invite=${token}`,
          });
        }
      });
      mailer.kick();
    },

    async revokeInvitee(row: VideoconferenceRow, inviteeId: string): Promise<void> {
      if (!(await repo.revokeInvitee(row.id, inviteeId, Date.now()))) throw new AppError('ERR_NOT_FOUND');
    },

    subscribe: (meetingId: string, listener: () => void) => bus.subscribe(meetingId, listener),
  };
}

export type Lobby = ReturnType<typeof createLobby>;

/** The purge job's step: requests not used for LOBBY_RETENTION_DAYS are deleted; returns how many. */
export const purgeOldLobbyRequests = (db: Kysely<Database>, now = Date.now()) =>
  lobbyRepository(db).purgeOlderThan(now - LOBBY_RETENTION_DAYS * 86_400_000);
