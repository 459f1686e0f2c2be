import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { PASSKEY_NAME_MAX, type Passkey } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import { useErrorMessage } from '../../../lib/use-error-message';
import { removePasskey, renamePasskey } from '../api/security';
import { relativeTime } from '../lib/relative-time';

interface Props {
  passkey: Passkey;
  now: Date;
  languageTag: string;
  onRenamed: (passkey: Passkey) => void;
  onRemoved: (passkey: Passkey) => void;
}

/** One passkey: its name (renamable), when it was added and last used, and Remove (asked first). */
export function PasskeyItem({ passkey, now, languageTag, onRenamed, onRemoved }: Props) {
  const { t } = useTranslation('security');
  const message = useErrorMessage();
  const { confirm } = useDialog();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const titleId = useId();
  const dates = new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium' });
  const used = passkey.last_used_at ? new Date(Math.min(Date.parse(passkey.last_used_at), now.getTime())) : null;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError(t('passkeys.nameRequired'));
    setBusy(true);
    setError(null);
    try {
      onRenamed(await renamePasskey(passkey._id, name.trim()));
      setEditing(false);
      requestAnimationFrame(() => document.getElementById(`${titleId}-rename`)?.focus());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    const yes = await confirm({
      title: t('passkeys.removeTitle', { name: passkey.name }),
      text: t('passkeys.removeText'),
      primaryLabel: t('passkeys.removeConfirm'),
      secondaryLabel: t('cancel'),
      variant: 'danger',
    });
    if (!yes) return;
    setBusy(true);
    setError(null);
    try {
      await removePasskey(passkey._id);
      onRemoved(passkey);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) return onRemoved(passkey);
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <li className="item-list__item" aria-labelledby={titleId}>
      {editing ? (
        <form className="security__rename" onSubmit={(e) => void save(e)} noValidate>
          <TextField
            label={t('passkeys.name')}
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
          <div className="security__actions">
            <Button
              variant="secondary"
              onClick={() => {
                setEditing(false);
                setName(passkey.name);
                setError(null);
              }}
            >
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('passkeys.save')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="item-list__head">
          <div className="item-list__meta sessions__meta">
            <h4 id={titleId} className="item-list__name">
              {passkey.name}
            </h4>
            <span className="muted sessions__details">
              <time dateTime={passkey.created_at}>
                {t('passkeys.addedOn', { date: dates.format(new Date(passkey.created_at)) })}
              </time>
              {used ? (
                <time dateTime={used.toISOString()}>
                  {t('passkeys.lastUsed', { when: relativeTime(used, now, languageTag) })}
                </time>
              ) : (
                <span>{t('passkeys.neverUsed')}</span>
              )}
              {passkey.synced && <span className="security__badge">{t('passkeys.synced')}</span>}
            </span>
          </div>
          <div className="security__item-actions">
            <Button
              id={`${titleId}-rename`}
              variant="secondary"
              className="sessions__sign-out"
              aria-label={t('passkeys.renameOf', { name: passkey.name })}
              onClick={() => setEditing(true)}
            >
              {t('passkeys.rename')}
            </Button>
            <Button
              variant="secondary"
              className="sessions__sign-out"
              aria-label={t('passkeys.removeOf', { name: passkey.name })}
              onClick={() => void remove()}
              loading={busy}
            >
              {t('passkeys.remove')}
            </Button>
          </div>
        </div>
      )}
      {error !== null && <Alert>{message(error)}</Alert>}
    </li>
  );
}
