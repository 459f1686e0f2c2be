import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { PASSKEY_NAME_MAX, type Passkey } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { removePasskey, renamePasskey } from '../api/security';
import { relativeTime } from '../lib/relative-time';
import { ProofCancelled } from '../../../components/fresh-proof';
import '../../../components/destructive.css';

interface Props {
  passkey: Passkey;
  now: Date;
  languageTag: string;
  onRenamed: (passkey: Passkey) => void;
  onRemoved: (passkey: Passkey) => void;
  /** Runs a change through the fresh-proof dialog when the server asks for a recent proof. */
  withProof: <T>(action: () => Promise<T>) => Promise<T>;
  /** The person closed the fresh-proof dialog: nothing was removed. */
  onCancelled: () => void;
}

/** One passkey: its name (renamable), when it was added and last used, and Remove (asked first). */
export function PasskeyItem({ passkey, now, languageTag, onRenamed, onRemoved, withProof, onCancelled }: Props) {
  const { t } = useTranslation('security');
  const { confirm } = useDialog();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const titleId = useId();
  const dates = new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium' });
  const used = passkey.last_used_at ? new Date(Math.min(Date.parse(passkey.last_used_at), now.getTime())) : null;

  const rename = useFormSubmit({
    movesOn: false,
    validate: () => (name.trim() ? undefined : { form: t('passkeys.nameRequired') }),
    send: async () => {
      onRenamed(await renamePasskey(passkey._id, name.trim()));
      setEditing(false);
      requestAnimationFrame(() => document.getElementById(`${titleId}-rename`)?.focus());
    },
  });
  const removal = useFormSubmit({
    movesOn: false,
    failure: (failure) => {
      // Already removed (elsewhere): it is gone either way.
      if (!(failure instanceof ApiError && failure.status === 404)) return { form: failure };
      onRemoved(passkey);
      return null;
    },
  });

  async function remove() {
    const yes = await confirm({
      title: t('passkeys.removeTitle', { name: passkey.name }),
      text: t('passkeys.removeText'),
      primaryLabel: t('passkeys.removeConfirm'),
      secondaryLabel: t('cancel'),
      variant: 'danger',
    });
    if (!yes) return;
    await removal.run(null, async () => {
      // Removing a passkey is a factor change: like adding one, it may ask for a fresh proof first.
      try {
        await withProof(() => removePasskey(passkey._id));
      } catch (failure) {
        if (!(failure instanceof ProofCancelled)) throw failure;
        onCancelled();
        return;
      }
      onRemoved(passkey);
    });
  }
  const error = rename.error ?? removal.error;

  return (
    <li className="item-list__item" aria-labelledby={titleId}>
      {editing ? (
        <form className="security__rename" onSubmit={rename.onSubmit} noValidate>
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
                rename.setError(null);
              }}
            >
              {t('cancel')}
            </Button>
            <Button type="submit" loading={rename.busy}>
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
              variant="quiet-danger"
              className="sessions__sign-out"
              aria-label={t('passkeys.removeOf', { name: passkey.name })}
              onClick={() => void remove()}
              loading={removal.busy}
            >
              {t('passkeys.remove')}
            </Button>
          </div>
        </div>
      )}
      {error !== null && <Alert>{error}</Alert>}
    </li>
  );
}
