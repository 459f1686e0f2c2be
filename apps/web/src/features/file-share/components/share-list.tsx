import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { ShareLink } from '@suite/contract/core';
import { Button } from '../../../components/button';
import { useFormSubmit } from '../../../lib/use-form-submit';
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
  // Which link is being revoked: the one submit hook runs one at a time.
  const [revoking, setRevoking] = useState<string | null>(null);
  const submit = useFormSubmit({ movesOn: false });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const now = Date.now();

  function revoke(link: ShareLink) {
    setRevoking(link._id);
    void submit.run(null, async () => onRevoked(await revokeShare(fileId, link._id)));
  }

  if (links.length === 0) return <p className="muted">{t('noLinks')}</p>;
  return (
    <div className="stack">
      <h4 className="files__links-title">{t('links')}</h4>
      {submit.error !== null && (
        <p className="field__error" role="alert">
          {submit.error}
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
                  loading={submit.busy && revoking === link._id}
                  onClick={() => revoke(link)}
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
