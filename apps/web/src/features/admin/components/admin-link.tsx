import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-react';
import { PATHS } from '../../../lib/paths';
import { getAdminMe } from '../api/admin-me';
import { getClaim } from '../api/claim';
import { CONSOLE_PATH } from '../lib/sections';
import { WithDomain } from '../../../components/address';
import './admin-link.css';

type Shown = { kind: 'admin'; domains: string[] } | { kind: 'claim'; domain: string } | null;

/**
 * The signed-in home's way into administration. An administrator (GET /admin/me answers 200) gets the
 * console; a person of a company domain who administers nothing gets "Set up administration", the DNS
 * proof (GET /admin/claim answers 200 only for a company address: a free-mail one gets 403 and nothing
 * here). When no answer comes, nothing at all.
 */
export function AdminLink() {
  const { t } = useTranslation('admin');
  const [shown, setShown] = useState<Shown>(null);
  useEffect(() => {
    let current = true;
    getAdminMe().then(
      (me) => current && setShown({ kind: 'admin', domains: me.domains.map((d) => d.domain) }),
      (error: unknown) => {
        if (!(error instanceof ApiError && error.status === 404)) return;
        getClaim().then(
          (claim) => current && !claim.admin && setShown({ kind: 'claim', domain: claim.domain }),
          () => undefined,
        );
      },
    );
    return () => {
      current = false;
    };
  }, []);
  if (!shown) return null;
  if (shown.kind === 'claim') {
    return (
      <section className="card admin-link" aria-labelledby="admin-link-title">
        <div>
          <h2 id="admin-link-title">{t('setup.title')}</h2>
          <p className="muted admin-link__text">
            <WithDomain text={t('setup.text', { domain: shown.domain })} domain={shown.domain} />
          </p>
        </div>
        <Link className="btn btn--secondary" to={PATHS.adminClaim}>
          {t('setup.open')}
        </Link>
      </section>
    );
  }
  if (shown.domains.length === 0) return null;
  return (
    <section className="card admin-link" aria-labelledby="admin-link-title">
      <div>
        <h2 id="admin-link-title">{t('title')}</h2>
        <p className="muted admin-link__text">{t('homeText', { domain: shown.domains.join(', ') })}</p>
      </div>
      <Link className="btn btn--secondary" to={CONSOLE_PATH}>
        {t('open')}
      </Link>
    </section>
  );
}
