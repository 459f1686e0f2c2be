import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { ShareLink } from '@suite/contract/core';
import { Button } from '../../../components/button';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { revokeShare } from '../api/files';
import { keptLinks } from '../lib/kept-links';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';

/** Copies a live link this browser created (its address is kept here: the server has only its hash). */
function CopyKept({ url, label }: { url: string; label: string }) {
  const { t } = useTranslation('files');
  const { status, copy } = useCopyToClipboard(2000);
  return (
    <>
      <Button variant="secondary" className="btn--small" aria-label={label} onClick={() => void copy(url)}>
        {t('copy')}
      </Button>
      <span className="visually-hidden" role="status">
        {status === 'copied' ? t('copied') : status === 'manual' ? t('copyManually') : ''}
      </span>
    </>
  );
}

function linkState(link: ShareLink, now: number): 'revoked' | 'expired' | 'active' {
  if (link.revoked) return 'revoked';
  return link.expires_at !== null && Date.parse(link.expires_at) <= now ? 'expired' : 'active';
}

/** The file's links with their state; active ones can be revoked. */
export function ShareList({
  fileId,
  links,
  shown,
  onRevoked,
}: {
  fileId: string;
  links: ShareLink[];
  /** The link just made, shown above with its own Copy: one Copy per link. */
  shown?: string;
  onRevoked: (link: ShareLink) => void;
}) {
  const { t, i18n } = useTranslation('files');
  // Which link is being revoked: the one submit hook runs one at a time.
  const [revoking, setRevoking] = useState<string | null>(null);
  const submit = useFormSubmit({ movesOn: false });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const now = Date.now();

  // Links that no longer work are no longer kept.
  const dead = links.filter((link) => linkState(link, now) !== 'active').map((link) => link._id);
  const deadKey = dead.join(',');
  useEffect(() => {
    if (deadKey) keptLinks.forget(deadKey.split(','));
  }, [deadKey]);

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
              {state === 'active' && link._id !== shown && keptLinks.get(link._id) && (
                <CopyKept url={keptLinks.get(link._id)!} label={t('copyLinkOf', { date: created })} />
              )}
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
