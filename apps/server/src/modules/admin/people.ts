import {
  ADMIN_INVITE_MAX,
  ADMIN_PAGE_SIZE,
  emailDomain,
  isEmailShape,
  normalizeEmail,
  type AdminInviteResponse,
  type Language,
  type PeoplePage,
  type PeopleQuery,
  type Person,
  type SignInMethod,
} from '@suite/contract';
import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import { accountsAdmin } from '../accounts/index.js';
import { auditRepository, recordAudit } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { requireAdmin, requireFresh } from './guard.js';
import { NOT_FOUND, decodeCursor, encodeCursor, iso } from './http.js';
import { adminsRepository } from './repository.js';

type UserRow = Pick<
  Selectable<UsersTable>,
  'id' | 'email' | 'first_name' | 'last_name' | 'created_at' | 'password_hash' | 'domain' | 'active'
>;

const USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'created_at',
  'password_hash',
  'domain',
  'active',
] as const;

const party = (u: { id: string; email: string }) => ({ id: u.id, email: u.email });
/** LIKE pattern of a search: its own % and _ are literal (escaped by a backslash, see `matchesLike`). */
const likeOf = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/**
 * `value LIKE pattern` with the backslash named as escape character: PostgreSQL takes it by default,
 * SQLite has no default one and would read `\%` as a backslash followed by any text.
 */
const matchesLike = (value: Expression<string>, pattern: string) => sql<SqlBool>`${value} like ${pattern} escape '\\'`;

/** Methods, live sessions, last sign-in and admin flag of one page of accounts: one query each. */
async function describe(db: Kysely<Database>, domain: string, rows: UserRow[]): Promise<Person[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const now = Date.now();
  const [passkeys, totp, sso, sessions, lastSignIns, admins] = await Promise.all([
    db.selectFrom('passkeys').select('user_id').distinct().where('user_id', 'in', ids).execute(),
    db
      .selectFrom('totp_factors')
      .select('user_id')
      .where('user_id', 'in', ids)
      .where('enabled_at', 'is not', null)
      .execute(),
    db.selectFrom('sso_identities').select('user_id').distinct().where('user_id', 'in', ids).execute(),
    db
      .selectFrom('sessions')
      .select(['user_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('created_at').as('last')])
      .where('user_id', 'in', ids)
      .where('kind', '=', 'session')
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .groupBy('user_id')
      .execute(),
    auditRepository(db).lastSignIns(ids),
    adminsRepository(db).adminIds(ids, domain),
  ]);
  const has = (list: { user_id: string }[]) => new Set(list.map((r) => r.user_id));
  const [withPasskey, withTotp, withSso] = [has(passkeys), has(totp), has(sso)];
  const live = new Map(sessions.map((s) => [s.user_id, { n: Number(s.n), last: Number(s.last) }]));
  return rows.map((r) => {
    const methods: SignInMethod[] = [];
    if (r.password_hash) methods.push('password');
    if (withPasskey.has(r.id)) methods.push('passkey');
    if (withTotp.has(r.id)) methods.push('two_step');
    if (withSso.has(r.id)) methods.push('sso');
    const lastSignIn = Math.max(lastSignIns.get(r.id) ?? 0, live.get(r.id)?.last ?? 0);
    return {
      id: r.id,
      email: r.email,
      first_name: r.first_name,
      last_name: r.last_name,
      status: Number(r.active) ? 'active' : 'deactivated',
      methods,
      sessions: live.get(r.id)?.n ?? 0,
      last_sign_in_at: lastSignIn ? iso(lastSignIn) : null,
      created_at: iso(r.created_at) as string,
      admin: admins.has(r.id),
    };
  });
}

const entry = (id: string, email: string, status: 'invited' | 'waiting', createdAt: number): Person => ({
  id,
  email,
  first_name: '',
  last_name: '',
  status,
  methods: [],
  sessions: 0,
  last_sign_in_at: null,
  created_at: iso(createdAt) as string,
  admin: false,
});

/**
 * The People page: the domain's accounts (confirmed ones; sign-ups still at the code step are nobody yet)
 * by address, keyset paged on (email, id); `invited` lists open invitations of addresses without an
 * account, `waiting` the approval requests not decided yet.
 */
export async function listPeople(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  query: PeopleQuery,
): Promise<PeoplePage> {
  await requireAdmin(deps.db, user, domain);
  const limit = query.limit ?? ADMIN_PAGE_SIZE;
  const after = decodeCursor(query.cursor, ['string', 'string']) as [string, string] | null;
  const q = query.q?.trim() ? likeOf(query.q.trim()) : null;
  const matches = (email: string) => !q || email.includes(query.q!.trim().toLowerCase());
  const pageOf = (people: Person[]): PeoplePage => {
    const more = people.length > limit;
    const page = people.slice(0, limit);
    const last = page[page.length - 1];
    return { people: page, next_cursor: more && last ? encodeCursor([last.email, last.id]) : null };
  };
  const past = (p: { email: string; id: string }) =>
    !after || p.email > after[0] || (p.email === after[0] && p.id > after[1]);

  if (query.status === 'invited') {
    const invites = await accountsAdmin(deps.db).pendingInvites(domain, Date.now());
    const people = invites
      .map((i) => entry(String(i.any_hash), i.email, 'invited', Number(i.created_at)))
      .filter((p) => matches(p.email) && past(p))
      .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : a.id < b.id ? -1 : 1));
    return pageOf(people.slice(0, limit + 1));
  }
  if (query.status === 'waiting') {
    let rq = deps.db
      .selectFrom('access_requests')
      .select(['id', 'email', 'created_at'])
      .where('domain', '=', domain)
      .where('reason', '=', 'approval')
      .where('status', '=', 'pending');
    if (q) rq = rq.where((eb) => matchesLike(eb.ref('email'), q));
    if (after) {
      rq = rq.where((eb) =>
        eb.or([eb('email', '>', after[0]), eb.and([eb('email', '=', after[0]), eb('id', '>', after[1])])]),
      );
    }
    const rows = await rq
      .orderBy('email')
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    return pageOf(rows.map((r) => entry(r.id, r.email, 'waiting', Number(r.created_at))));
  }

  let uq = deps.db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('domain', '=', domain)
    .where('confirmed_at', 'is not', null);
  if (query.status === 'active') uq = uq.where('active', '=', 1);
  if (query.status === 'deactivated') uq = uq.where('active', '=', 0);
  if (q) {
    uq = uq.where((eb) =>
      eb.or([
        matchesLike(eb.ref('email'), q),
        matchesLike(sql<string>`lower(first_name || ' ' || last_name)`, q),
        matchesLike(sql<string>`lower(last_name || ' ' || first_name)`, q),
      ]),
    );
  }
  if (after) {
    uq = uq.where((eb) =>
      eb.or([eb('email', '>', after[0]), eb.and([eb('email', '=', after[0]), eb('id', '>', after[1])])]),
    );
  }
  const rows = (await uq
    .orderBy('email')
    .orderBy('id')
    .limit(limit + 1)
    .execute()) as UserRow[];
  const more = rows.length > limit;
  const people = await describe(deps.db, domain, rows.slice(0, limit));
  const last = people[people.length - 1];
  return { people, next_cursor: more && last ? encodeCursor([last.email, last.id]) : null };
}

/** An account of a domain the caller administers (else 404, like an unknown id). */
async function personOf(db: Kysely<Database>, user: SessionUser, id: string) {
  const person = await accountsAdmin(db).userById(id);
  if (!person) throw NOT_FOUND();
  await requireAdmin(db, user, person.domain);
  return person;
}

async function describeOne(db: Kysely<Database>, id: string): Promise<Person> {
  const row = (await db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirstOrThrow()) as UserRow;
  return (await describe(db, row.domain, [row]))[0] as Person;
}

export async function getPerson(deps: AdminDeps, user: SessionUser, id: string): Promise<{ person: Person }> {
  const invite = /^[0-9a-f]{64}$/.test(id) ? await invitedPerson(deps, user, id) : null;
  if (invite) return { person: invite };
  const person = await personOf(deps.db, user, id);
  return { person: await describeOne(deps.db, person.id) };
}

export type PersonAction = 'deactivate' | 'reactivate' | 'end_sessions' | 'reset_two_step' | 'remove_passkeys';

/**
 * One action on one person, and its audit event, in one transaction. Deactivating ends every session
 * (each request checks the account's row, on every instance); reactivating brings none back. Resetting
 * two-step or removing passkeys mails the person (accounts' factor-change notice) and ends their sessions.
 */
export async function actOnPerson(
  deps: AdminDeps,
  user: SessionUser,
  id: string,
  action: PersonAction,
  ip: string,
): Promise<{ person: Person }> {
  const person = await personOf(deps.db, user, id);
  await requireFresh(deps.db, user);
  if (person.id === user.id && action === 'deactivate') throw new AppError('ERR_FORBIDDEN');
  await deps.db.transaction().execute(async (trx) => {
    const accounts = accountsAdmin(trx);
    if (action === 'deactivate' || action === 'reactivate') await accounts.setActive(person, action === 'reactivate');
    if (action === 'end_sessions') await accounts.endSessions(person.id);
    if (action === 'reset_two_step' || action === 'remove_passkeys') {
      await accounts.resetFactorsOf(deps.config, person, {
        totp: action === 'reset_two_step',
        passkeys: action === 'remove_passkeys',
      });
    }
    await recordAudit(trx, {
      kind: action === 'reset_two_step' || action === 'remove_passkeys' ? 'factor_changed' : 'admin_action',
      action,
      domain: person.domain,
      actor: party(user),
      target: party(person),
      ip,
    });
    if (action === 'deactivate' || action === 'end_sessions') {
      await recordAudit(trx, {
        kind: 'session_ended',
        action,
        domain: person.domain,
        actor: party(user),
        target: party(person),
        ip,
      });
    }
  });
  if (action === 'reset_two_step' || action === 'remove_passkeys') deps.mailer.kick();
  return { person: await describeOne(deps.db, person.id) };
}

/** Pasted text → addresses: "Name <a@b>" is read as a@b; separators are new lines, commas, semicolons, spaces. */
export function parseAddressList(text: string): string[] {
  return text
    .replace(/[^<>,;\n]*<([^<>]*)>/g, ' $1 ')
    .split(/[\s,;]+/)
    .map((s) => s.trim().replace(/^mailto:/i, ''))
    .filter(Boolean);
}

export async function invitePeople(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  input: { text: string; language?: Language | undefined },
  language: Language,
  ip: string,
): Promise<AdminInviteResponse> {
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  const given = parseAddressList(input.text);
  if (given.length > ADMIN_INVITE_MAX) throw new AppError('ERR_INVITE_LIST_TOO_LONG');
  const skipped: AdminInviteResponse['skipped'] = [];
  const wanted: string[] = [];
  for (const raw of given) {
    if (!isEmailShape(raw)) {
      skipped.push({ email: raw.slice(0, 254), reason: 'invalid' });
      continue;
    }
    const email = normalizeEmail(raw);
    if (emailDomain(email) !== domain) skipped.push({ email, reason: 'other_domain' });
    else if (wanted.includes(email)) skipped.push({ email, reason: 'duplicate' });
    else wanted.push(email);
  }
  if (wanted.length === 0 && skipped.length === 0) throw new AppError('ERR_NO_EMAIL_PROVIDED');
  const inviter = await accountsAdmin(deps.db).userById(user.id);
  const invited: string[] = [];
  await deps.db.transaction().execute(async (trx) => {
    const accounts = accountsAdmin(trx);
    for (const email of wanted) {
      const existing = await accounts.userByEmail(email);
      if (existing?.registered_at) {
        skipped.push({ email, reason: 'already_registered' });
        continue;
      }
      await accounts.queueInvite(deps.config, {
        email,
        inviterId: user.id,
        inviter: inviter
          ? { name: `${inviter.first_name} ${inviter.last_name}`.trim() || inviter.email, address: inviter.email }
          : null,
        language,
      });
      await recordAudit(trx, {
        kind: 'admin_action',
        action: 'invite',
        domain,
        actor: party(user),
        target: { id: null, email },
        ip,
      });
      invited.push(email);
    }
  });
  if (invited.length > 0) deps.mailer.kick();
  return { invited, skipped };
}

/** An open invitation of the caller's domain, by the hash the People page gave as its id. */
async function invitedPerson(deps: AdminDeps, user: SessionUser, id: string): Promise<Person | null> {
  const row = await deps.db.selectFrom('invites').selectAll().where('jti_hash', '=', id).executeTakeFirst();
  if (!row) return null;
  await requireAdmin(deps.db, user, emailDomain(row.email));
  if (row.accepted_at !== null || Number(row.expires_at) <= Date.now()) return null;
  return entry(row.jti_hash, row.email, 'invited', Number(row.created_at));
}

export async function resendInvitation(
  deps: AdminDeps,
  user: SessionUser,
  id: string,
  language: Language,
  ip: string,
): Promise<{ person: Person }> {
  const row = /^[0-9a-f]{64}$/.test(id)
    ? await deps.db.selectFrom('invites').selectAll().where('jti_hash', '=', id).executeTakeFirst()
    : undefined;
  if (!row) {
    // An account id: it has no invitation to send again (or it is not ours to know: 404 first).
    await personOf(deps.db, user, id);
    throw new AppError('ERR_PERSON_NOT_INVITED');
  }
  const domain = emailDomain(row.email);
  await requireAdmin(deps.db, user, domain);
  await requireFresh(deps.db, user);
  const existing = await accountsAdmin(deps.db).userByEmail(row.email);
  if (existing?.registered_at) throw new AppError('ERR_PERSON_NOT_INVITED');
  const inviter = await accountsAdmin(deps.db).userById(user.id);
  await deps.db.transaction().execute(async (trx) => {
    await accountsAdmin(trx).queueInvite(deps.config, {
      email: row.email,
      inviterId: user.id,
      inviter: inviter
        ? { name: `${inviter.first_name} ${inviter.last_name}`.trim() || inviter.email, address: inviter.email }
        : null,
      language,
    });
    await recordAudit(trx, {
      kind: 'admin_action',
      action: 'invite_resent',
      domain,
      actor: party(user),
      target: { id: null, email: row.email },
      ip,
    });
  });
  deps.mailer.kick();
  const latest = await accountsAdmin(deps.db).pendingInvites(domain, Date.now());
  const mine = latest.find((i) => i.email === row.email);
  return { person: entry(mine ? String(mine.any_hash) : row.jti_hash, row.email, 'invited', Date.now()) };
}
