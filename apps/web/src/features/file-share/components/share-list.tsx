import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { ShareLink } from '@suite/contract/core';
import { Button } from '../../../components/button';
import { useErrorMessage } from '../../../lib/use-error-message';
import { revokeShare } from '../api/files';

function linkState(link: ShareLink, now: number): 'revoked' | 'expired' | 'active' {
  if (link.revoked) return 'revoked';
  return link.expires_at !== null && Date.parse(link.expires_at) <= now ? 'expired' : 'active';
}

/** The file's links with their state; active ones can be revoked. */
export function ShareList({
  fileId,
  links,
  onRevoked,
}: {
  fileId: string;
  links: ShareLink[];
  onRevoked: (link: ShareLink) => void;
}) {
  const { t, i18n } = useTranslation('files');
  const message = useErrorMessage();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null); // words, or a failure put in words at render
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const now = Date.now();

  async function revoke(link: ShareLink) {
    setBusy(link._id);
    setError(null);
    try {
      onRevoked(await revokeShare(fileId, link._id));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  }

  if (links.length === 0) return <p className="muted">{t('noLinks')}</p>;
  return (
    <div className="stack">
      <h4 className="files__links-title">{t('links')}</h4>
      {error !== null && (
        <p className="field__error" role="alert">
          {message(error)}
        </p>
      )}
      <ul className="item-list">
        {links.map((link) => {
          const state = linkState(link, now);
          const created = format.format(new Date(link.created_at));
          return (
            <li key={link._id} className={`files__link files__link--${state}`}>
              <span>
                <span className="files__link-state">{t(`state.${state}`)}</span>
                <span className="muted">
                  {' · '}
                  {t('createdAt', { date: created })}
                  {' · '}
                  {link.expires_at ? t('expiresAt', { date: format.format(new Date(link.expires_at)) }) : t('noExpiry')}
                </span>
              </span>
              {state === 'active' && (
                <Button
                  variant="link"
                  loading={busy === link._id}
                  onClick={() => void revoke(link)}
                  aria-label={t('revokeLabel', { date: created })}
                >
                  {t('revoke')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
