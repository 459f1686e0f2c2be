import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dns2 from 'dns2';
import { ADMIN_CLAIM_GRACE_MS, ADMIN_CLAIM_RECHECK_MS, ADMIN_API } from '@suite/contract';
import { adminCli } from '../src/modules/admin/index.js';
import { call, expectError, registered, startWorld, type AccountsWorld } from './accounts-helpers.js';
import { insertSignedInUser } from './helpers.js';

const { Packet } = dns2;
/** This engineer's port range: a DNS server on loopback, UDP and TCP on the same port. */
const DNS_PORT = 38053;

type Zone = Map<string, { txt?: string[]; cname?: string; truncate?: boolean; refuse?: boolean }>;

/**
 * A DNS server on loopback (npm dns2) that serves TXT records from `zone`: right, wrong, missing,
 * reached through a CNAME (answered as a recursive resolver does: the CNAME and the target's TXT), and
 * one name answered truncated over UDP so the resolver asks again over TCP.
 */
function startDns(zone: Zone) {
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send, rinfo) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      const entry = zone.get(name);
      const overUdp = typeof (rinfo as { port?: number }).port === 'number' && !('remoteAddress' in rinfo);
      if (entry?.refuse) {
        response.header.rcode = 5;
      } else if (entry?.truncate && overUdp) {
        response.header.tc = 1;
      } else if (entry?.cname) {
        response.answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: entry.cname });
        for (const data of zone.get(entry.cname)?.txt ?? []) {
          response.answers.push({ name: entry.cname, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data });
        }
      } else if (entry?.txt) {
        for (const data of entry.txt) {
          response.answers.push({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data });
        }
      } else {
        response.header.rcode = 3; // NXDOMAIN
      }
      send(response);
    },
  });
  return server;
}

describe('proving a domain with a DNS TXT record', () => {
  let w: AccountsWorld;
  const zone: Zone = new Map();
  let dns: ReturnType<typeof startDns>;
  const people: Record<string, { token: string; id: string }> = {};
  const claim = (who: string) => call(w.app, { method: 'GET', url: ADMIN_API.adminClaim, token: people[who]!.token });
  const verify = (who: string) =>
    call(w.app, { method: 'POST', url: ADMIN_API.adminClaimVerify, token: people[who]!.token });

  beforeAll(async () => {
    dns = startDns(zone);
    await dns.listen({
      udp: { port: DNS_PORT, address: '127.0.0.1', type: 'udp4' },
      tcp: { port: DNS_PORT, address: '127.0.0.1' },
    });
    w = await startWorld({ DNS_SERVERS: `127.0.0.1:${DNS_PORT}` });
    for (const who of ['right', 'wrong', 'missing', 'cname', 'tcp', 'down']) {
      people[who] = await registered(w, `it@${who}-corp.com`);
    }
  }, 60_000);
  afterAll(async () => {
    await w.close();
    await dns.close();
  });

  it('shows the record to publish, per domain and person', async () => {
    const res = await claim('right');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      domain: 'right-corp.com',
      record_name: '_suite-challenge.right-corp.com',
      admin: false,
    });
    expect(res.json().record_value).toMatch(/^suite-verify=[A-Za-z0-9_-]{43}$/);
    expect((await claim('wrong')).json().record_value).not.toBe(res.json().record_value);
  });

  it('the right record makes an administrator; wrong, missing and unreachable ones do not', async () => {
    zone.set('_suite-challenge.right-corp.com', { txt: ['v=spf1 -all', (await claim('right')).json().record_value] });
    zone.set('_suite-challenge.wrong-corp.com', { txt: [(await claim('right')).json().record_value] });
    zone.set('_suite-challenge.down-corp.com', { refuse: true });

    expectError(await verify('wrong'), 400, 'ERR_CLAIM_RECORD_MISMATCH');
    expectError(await verify('missing'), 400, 'ERR_CLAIM_RECORD_MISSING');
    const down = await verify('down');
    expectError(down, 503, 'ERR_DNS_UNAVAILABLE');
    expect(down.headers['retry-after']).toBeDefined();
    for (const who of ['wrong', 'missing', 'down']) {
      expectError(
        await call(w.app, { method: 'GET', url: ADMIN_API.adminMe, token: people[who]!.token }),
        404,
        'ERR_NOT_FOUND',
      );
    }

    const ok = await verify('right');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ domains: [{ domain: 'right-corp.com', via: 'dns' }] });
    const trail = await call(w.app, {
      method: 'GET',
      url: '/admin/domains/right-corp.com/audit?kind=admin_action',
      token: people.right!.token,
    });
    expect(trail.json().events[0]).toMatchObject({ action: 'admin_claimed', actor_email: 'it@right-corp.com' });
  });

  it('follows a CNAME, and reads a record answered over TCP after a truncated UDP answer', async () => {
    zone.set('_suite-challenge.cname-corp.com', { cname: 'proofs.dns-host.example' });
    zone.set('proofs.dns-host.example', { txt: [(await claim('cname')).json().record_value] });
    expect((await verify('cname')).statusCode).toBe(200);

    zone.set('_suite-challenge.tcp-corp.com', { txt: [(await claim('tcp')).json().record_value], truncate: true });
    const res = await verify('tcp');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a free-mail address cannot claim its provider', async () => {
    const gmail = await insertSignedInUser(w.app, { email: 'someone@gmail.com', first: 'Some', last: 'One' });
    expectError(
      await call(w.app, { method: 'GET', url: ADMIN_API.adminClaim, token: gmail.token }),
      403,
      'ERR_CLAIM_NOT_ALLOWED',
    );
  });

  it('the daily check: a vanished record is mailed to the admins, the claim dropped after the grace', async () => {
    const cli = adminCli(w.app.db.kysely, w.t.config);
    zone.delete('_suite-challenge.right-corp.com');
    const before = w.smtp.messages.length;
    const first = Date.now() + ADMIN_CLAIM_RECHECK_MS + 1000;
    expect(await cli.recheckClaims(first)).toBe(0);
    // The CLI's mailer does not deliver: the running server's outbox job does.
    w.app.mailer.kick();
    const mail = await w.smtp.waitFor(
      (m) =>
        w.smtp.messages.indexOf(m) >= before &&
        m.to.includes('it@right-corp.com') &&
        m.subject.includes('right-corp.com'),
    );
    expect(mail.text).toContain('_suite-challenge.right-corp.com');
    const list = (await cli.admins.list('right-corp.com')).admins;
    expect(list[0]?.drops_at).not.toBeNull();
    // Still an administrator during the grace; the CNAME'd one is untouched.
    expect((await call(w.app, { method: 'GET', url: ADMIN_API.adminMe, token: people.right!.token })).statusCode).toBe(
      200,
    );

    const later = first + ADMIN_CLAIM_GRACE_MS + ADMIN_CLAIM_RECHECK_MS;
    expect(await cli.recheckClaims(later)).toBe(1);
    expectError(
      await call(w.app, { method: 'GET', url: ADMIN_API.adminMe, token: people.right!.token }),
      404,
      'ERR_NOT_FOUND',
    );
    expect((await call(w.app, { method: 'GET', url: ADMIN_API.adminMe, token: people.cname!.token })).statusCode).toBe(
      200,
    );
  });

  it('a record put back within the grace keeps the claim', async () => {
    const cli = adminCli(w.app.db.kysely, w.t.config);
    zone.delete('_suite-challenge.cname-corp.com');
    // After the previous test's clock (its checks dated the claims up to two graces ahead).
    const t0 = Date.now() + 10 * ADMIN_CLAIM_GRACE_MS;
    await cli.recheckClaims(t0);
    expect((await cli.admins.list('cname-corp.com')).admins[0]?.drops_at).not.toBeNull();
    zone.set('_suite-challenge.cname-corp.com', { cname: 'proofs.dns-host.example' });
    await cli.recheckClaims(t0 + ADMIN_CLAIM_RECHECK_MS + 1000);
    expect((await cli.admins.list('cname-corp.com')).admins[0]?.drops_at).toBeNull();
    await cli.recheckClaims(t0 + ADMIN_CLAIM_GRACE_MS + 3 * ADMIN_CLAIM_RECHECK_MS);
    expect((await call(w.app, { method: 'GET', url: ADMIN_API.adminMe, token: people.cname!.token })).statusCode).toBe(
      200,
    );
  });
});
