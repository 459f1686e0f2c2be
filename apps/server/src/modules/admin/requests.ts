import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  ACCESS_REQUEST_LINK_TTL_MS,
  ACCESS_REQUEST_MAILS_PER_DOMAIN,
  ACCESS_REQUEST_WINDOW_MS,
  ADMIN_PAGE_SIZE,
  ADMIN_WEB_PATHS,
  emailDomain,
  normalizeEmail,
  pageUrl,
  type AccessRequest,
  type AccessRequestCreate,
  type AccessRequestsPage,
  type AccessRequestStatus,
  type Language,
} from '@suite/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import { accessRequestsGate, isPersonalAddress } from '../accounts/index.js';
import { recordAudit } from '../audit/index.js';
import { sameSecret } from './admins.js';
import type { AdminDeps } from './deps.js';
import { requireAdmin, requireFresh } from './guard.js';
import { NOT_FOUND, decodeCursor, encodeCursor, iso } from './http.js';
import { adminsRepository, requestsRepository, type RequestRow } from './repository.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const view = (r: RequestRow): AccessRequest => ({
  id: r.id,
  email: r.email,
  domain: r.domain,
  reason: r.reason,
  message: r.message,
  status: r.status,
  created_at: iso(r.created_at) as string,
  decided_at: iso(r.decided_at),
  decided_by: r.decided_by,
});

/**
 * "Ask for access" (public). Stored when the address is a company one and it had not its share of
 * requests in the window (the route bounds each IP); otherwise nothing happens. The answer is the same either
 * way, and it comes before (and whatever) the administrators' mail: the notifier mails them from the
 * table, so the time taken tells nothing of whether the domain exists or has administrators.
 */
export async function createRequest(deps: AdminDeps, input: AccessRequestCreate, language: Language): Promise<void> {
  const email = normalizeEmail(input.email);
  const domain = emailDomain(email);
  if (await isPersonalAddress(domain)) return;
  const stored = await accessRequestsGate(deps.db).open({
    email,
    domain,
    reason: input.reason,
    message: input.message?.trim() || null,
    language,
  });
  if (stored) deps.announce();
}

/** The link an administrator gets: the request's secret, their id, and a MAC binding the two. */
function linkToken(deps: AdminDeps, secret: string, adminId: string): string {
  const mac = createHmac('sha256', deps.config.keys.admin.sign).update(`${secret}.${adminId}`).digest('base64url');
  return `${secret}.${adminId}.${mac}`;
}

function readLinkToken(deps: AdminDeps, token: string): { secret: string; adminId: string } | null {
  const [secret, adminId, mac, extra] = token.split('.');
  if (!secret || !adminId || !mac || extra !== undefined) return null;
  const ok = deps.config.keys.admin.verify.some((key) =>
    sameSecret(createHmac('sha256', key).update(`${secret}.${adminId}`).digest('base64url'), mac),
  );
  return ok ? { secret, adminId } : null;
}

/**
 * The domain's share of mails is used up: the request waits in the console without a link, and the
 * first one held in the window sends the administrators one digest saying how many wait there.
 */
async function hold(deps: AdminDeps, trx: Kysely<Database>, request: RequestRow, since: number): Promise<boolean> {
  const requests = requestsRepository(trx);
  if (!(await requests.hold(request.id, Date.now()))) return false;
  if ((await requests.announcedSince(request.domain, since)).held !== 1) return true;
  const waiting = await requests.pendingCount(request.domain);
  for (const admin of await adminsRepository(trx).list(request.domain)) {
    await deps.mailer.queue(trx, {
      kind: 'access-digest',
      to: admin.email,
      language: admin.language as Language,
      domain: request.domain,
      count: waiting,
      link: `${deps.config.publicUrl}${ADMIN_WEB_PATHS.console}`,
    });
  }
  return true;
}

/**
 * Mails the administrators of each request not announced yet, one link each (the same request secret,
 * bound to each administrator so the trail says who decided), up to ACCESS_REQUEST_MAILS_PER_DOMAIN of a
 * domain's requests in the window; beyond, a digest (see `hold`), so made-up addresses neither flood the
 * administrators nor push a colleague's request out. A domain without administrators gets no mail; its
 * request waits in the table for one. Claimed row by row, so instances never mail twice.
 */
export async function announceRequests(deps: AdminDeps): Promise<number> {
  const due = await requestsRepository(deps.db).unannounced(50);
  let announced = 0;
  for (const request of due) {
    const secret = randomBytes(24).toString('base64url');
    const sent = await deps.db.transaction().execute(async (trx) => {
      const since = Date.now() - ACCESS_REQUEST_WINDOW_MS;
      const { mailed } = await requestsRepository(trx).announcedSince(request.domain, since);
      const held = mailed >= ACCESS_REQUEST_MAILS_PER_DOMAIN;
      if (held) {
        if (!(await hold(deps, trx, request, since))) return false;
      } else if (
        !(await requestsRepository(trx).announce(request.id, sha256(secret), Date.now() + ACCESS_REQUEST_LINK_TTL_MS))
      )
        return false;
      await recordAudit(trx, {
        kind: 'access_request',
        action: 'requested',
        domain: request.domain,
        target: { id: null, email: request.email },
        reason: request.reason,
        details: { request: request.id },
      });
      if (held) return true;
      for (const admin of await adminsRepository(trx).list(request.domain)) {
        await deps.mailer.queue(trx, {
          kind: 'access-request',
          to: admin.email,
          language: admin.language as Language,
          domain: request.domain,
          requester: request.email,
          reason: request.reason,
          message: request.message,
          // The token rides in the fragment: never sent to a server, so no access log keeps it.
          link: `${deps.config.publicUrl}${ADMIN_WEB_PATHS.decide}#token=${linkToken(deps, secret, admin.user_id)}`,
        });
      }
      return true;
    });
    if (sent) announced++;
  }
  if (announced > 0) deps.mailer.kick();
  return announced;
}

export async function listRequests(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  query: { status?: AccessRequestStatus | undefined; cursor?: string | undefined; limit?: number | undefined },
): Promise<AccessRequestsPage> {
  await requireAdmin(deps.db, user, domain);
  const limit = query.limit ?? ADMIN_PAGE_SIZE;
  const after = decodeCursor(query.cursor, ['number', 'string']) as [number, string] | null;
  const rows = await requestsRepository(deps.db).page(
    domain,
    { status: query.status },
    after ? { at: after[0], id: after[1] } : null,
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    requests: page.map(view),
    next_cursor: rows.length > limit && last ? encodeCursor([Number(last.created_at), last.id]) : null,
  };
}

/** Approves or refuses once; the person is mailed the outcome, the trail records who decided. */
async function decide(
  deps: AdminDeps,
  request: RequestRow,
  decision: 'approve' | 'refuse',
  actor: { id: string; email: string },
  ip: string | null,
): Promise<AccessRequest> {
  const status = decision === 'approve' ? 'approved' : 'refused';
  await deps.db.transaction().execute(async (trx: Kysely<Database>) => {
    if (!(await requestsRepository(trx).decide(request.id, status, actor.email, Date.now()))) {
      throw new AppError('ERR_REQUEST_ALREADY_DECIDED');
    }
    await recordAudit(trx, {
      kind: 'access_request',
      action: status,
      domain: request.domain,
      actor,
      target: { id: null, email: request.email },
      reason: request.reason,
      ip,
      details: { request: request.id },
    });
    const signUp = request.reason === 'approval' || request.reason === 'invite_only';
    await deps.mailer.queue(trx, {
      kind: decision === 'approve' ? 'access-approved' : 'access-refused',
      to: request.email,
      language: request.language as Language,
      domain: request.domain,
      link: `${deps.config.publicUrl}${pageUrl(signUp && decision === 'approve' ? 'user-signup' : 'user-login')}`,
    });
  });
  deps.mailer.kick();
  const after = await requestsRepository(deps.db).byId(request.id);
  return view(after as RequestRow);
}

export async function decideById(
  deps: AdminDeps,
  user: SessionUser,
  id: string,
  decision: 'approve' | 'refuse',
  ip: string,
): Promise<{ request: AccessRequest }> {
  const request = await requestsRepository(deps.db).byId(id);
  if (!request) throw NOT_FOUND();
  await requireAdmin(deps.db, user, request.domain);
  await requireFresh(deps.db, user);
  return { request: await decide(deps, request, decision, { id: user.id, email: user.email }, ip) };
}

/** The request a mail link stands for, while the link works and its administrator still administers the domain. */
async function byLink(deps: AdminDeps, token: string) {
  const parts = readLinkToken(deps, token);
  const request = parts ? await requestsRepository(deps.db).byToken(sha256(parts.secret), Date.now()) : undefined;
  if (!parts || !request || !(await adminsRepository(deps.db).isAdmin(parts.adminId, request.domain))) {
    throw new AppError('ERR_REQUEST_LINK_INVALID');
  }
  const admin = (await adminsRepository(deps.db).list(request.domain)).find((a) => a.user_id === parts.adminId);
  return { request, admin: { id: parts.adminId, email: admin?.email ?? '' } };
}

export async function previewByLink(deps: AdminDeps, token: string): Promise<{ request: AccessRequest }> {
  return { request: view((await byLink(deps, token)).request) };
}

/**
 * The mail link decides without a session: the token is the proof (it reached that administrator's
 * mailbox, is bound to them by its MAC, and works once).
 */
export async function decideByLink(
  deps: AdminDeps,
  token: string,
  decision: 'approve' | 'refuse',
  ip: string,
): Promise<{ request: AccessRequest }> {
  const { request, admin } = await byLink(deps, token);
  return { request: await decide(deps, request, decision, admin, ip) };
}
