import type { FastifyInstance } from 'fastify';
import { SSO_CERTIFICATE_WARN_DAYS, SSO_METADATA_REFRESH_MS } from '@suite/contract';
import { accountsAdmin } from '../modules/accounts/index.js';
import type { Job } from './job.js';

/**
 * Single-sign-on metadata, kept current without a person: once when the server is ready, then daily,
 * every SAML connection set from a metadata URL is read again (a certificate the IdP rotated in its
 * metadata is taken), the certificates' ends go to the metric, and a certificate ending within
 * SSO_CERTIFICATE_WARN_DAYS is warned about. Any number of instances may run it: each writes what the
 * provider publishes, and the warnings are logged once a day over all of them.
 */
export function ssoMetadataJob(app: FastifyInstance): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const admin = () => accountsAdmin(app.db.kysely);
  const run = async () => {
    const ring = app.config.keys.sso;
    const { results, failures } = await admin().refreshSsoMetadata(ring);
    for (const r of results.filter((x) => x.changed))
      app.log.info(
        { job: 'sso-metadata', domain: r.domain },
        `sso: metadata of ${r.domain} changed: certificates added ${r.added.join(', ') || 'none'}, removed ${r.removed.join(', ') || 'none'}`,
      );
    for (const f of failures)
      app.log.warn({ job: 'sso-metadata', domain: f.domain }, `sso: metadata of ${f.domain} not refreshed: ${f.error}`);
    const states = await admin().ssoCertificates(ring);
    app.recordSsoCertificates(
      states.flatMap((s) => {
        const ends = s.certificates.map((c) => c.expiresAt).filter((e): e is number => e !== undefined);
        return ends.length ? [{ connection: s.id, domain: s.domain, expiresAt: Math.min(...ends) }] : [];
      }),
    );
    for (const s of states)
      for (const c of s.certificates.filter((x) => x.warning))
        if (await admin().firstNoticeToday(`certificate ${s.id} ${c.fingerprint}`))
          app.log.warn(
            { job: 'sso-metadata', domain: s.domain, connection: s.id },
            `sso: the IdP signing certificate SHA-256 ${c.fingerprint} of ${s.domain} ${c.warning === 'expired' ? 'has ended' : `ends within ${SSO_CERTIFICATE_WARN_DAYS} days`} (${new Date(c.expiresAt!).toISOString()}): ask the IdP's admin to publish its next certificate, then sso refresh ${s.domain}`,
          );
  };
  const once = () => {
    if (stopped || running) return;
    running = run()
      .catch((err: unknown) => app.log.warn({ err, job: 'sso-metadata' }, 'sso: metadata refresh failed'))
      .finally(() => (running = undefined));
  };
  return {
    name: 'sso-metadata',
    start() {
      once();
      timer = setInterval(once, SSO_METADATA_REFRESH_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
