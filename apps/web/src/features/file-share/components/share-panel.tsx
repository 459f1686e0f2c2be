import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { ShareLink, StoredFile } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { createShare, listShares } from '../api/files';
import { CopyLink } from './copy-link';
import { LabelledRow } from './labelled-row';
import { ShareList } from './share-list';
import { keptLinks } from '../lib/kept-links';

const HOUR = 3600_000;
/** Expiry choices offered when creating a link; `null` is a link that does not expire. */
const EXPIRIES = { '1h': HOUR, '1d': 24 * HOUR, '7d': 7 * 24 * HOUR, '30d': 30 * 24 * HOUR, never: null } as const;
type Expiry = keyof typeof EXPIRIES;

/** Create a link with an expiry, copy the new link (its key is shown only now), see and revoke links. */
export function SharePanel({ file }: { file: StoredFile }) {
  const { t } = useTranslation('files');
  const [expiry, setExpiry] = useState<Expiry>('7d');
  const [created, setCreated] = useState<ShareLink | null>(null);
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const submit = useFormSubmit({
    movesOn: false,
    send: async () => {
      const ms = EXPIRIES[expiry];
      const link = await createShare(file._id, ms === null ? undefined : new Date(Date.now() + ms).toISOString());
      if (link.url) keptLinks.keep(link._id, link.url);
      setCreated(link);
      setLinks((current) => [link, ...(current ?? [])]);
    },
  });
  const { setError } = submit;

  const load = useCallback(() => {
    listShares(file._id).then(setLinks, setError);
  }, [file._id, setError]);
  useEffect(load, [load]);

  const replaced = (link: ShareLink) =>
    setLinks((current) => current?.map((l) => (l._id === link._id ? link : l)) ?? null);

  return (
    <div className="stack files__share">
      <form className="files__share-form" onSubmit={submit.onSubmit}>
        <LabelledRow label={t('expiry')}>
          {(id) => (
            <>
              <select
                id={id}
                className="files__select"
                value={expiry}
                onChange={(e) => setExpiry(e.target.value as Expiry)}
              >
                {(Object.keys(EXPIRIES) as Expiry[]).map((key) => (
                  <option key={key} value={key}>
                    {t(`expiries.${key}`)}
                  </option>
                ))}
              </select>
              <Button type="submit" loading={submit.busy}>
                {t('createLink')}
              </Button>
            </>
          )}
        </LabelledRow>
      </form>
      {submit.error !== null && <Alert>{submit.error}</Alert>}
      {created?.url && <CopyLink url={created.url} />}
      {links && <ShareList fileId={file._id} links={links} shown={created?._id} onRevoked={replaced} />}
    </div>
  );
}
