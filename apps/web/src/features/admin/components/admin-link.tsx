import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '../../../lib/i18n-react';
import { getAdminMe } from '../api/admin-me';
import { CONSOLE_PATH } from '../lib/sections';
import './admin-link.css';

/**
 * The signed-in home's way into the console, shown only to an administrator (GET /admin/me answers 200);
 * for everyone else, or when the answer does not come, nothing at all.
 */
export function AdminLink() {
  const { t } = useTranslation('admin');
  const [domains, setDomains] = useState<string[] | null>(null);
  useEffect(() => {
    let current = true;
    getAdminMe().then(
      (me) => current && setDomains(me.domains.map((d) => d.domain)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  if (!domains || domains.length === 0) return null;
  return (
    <section className="card admin-link" aria-labelledby="admin-link-title">
      <div>
        <h2 id="admin-link-title">{t('title')}</h2>
        <p className="muted admin-link__text">{t('homeText', { domain: domains.join(', ') })}</p>
      </div>
      <Link className="btn btn--secondary" to={CONSOLE_PATH}>
        {t('open')}
      </Link>
    </section>
  );
}
