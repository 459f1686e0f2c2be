import { useId, useState } from 'react';
import { ADMIN_INVITE_TEXT_MAX, type AdminInviteResponse } from '@suite/contract';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { ProofCancelled } from '../../../components/fresh-proof';
import { useTranslation } from '../../../lib/i18n-react';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { invitePeople } from '../api/invite-people';
import type { AdminContext } from '../lib/admin-context';

/** Invite by pasting a list of addresses (one a line, or separated by commas): who was invited, who was skipped and why. */
export function InviteForm({ context, onInvited }: { context: AdminContext; onInvited: () => void }) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState('');
  const [result, setResult] = useState<AdminInviteResponse | null>(null);
  const id = useId();
  const submit = useFormSubmit<'text'>({
    movesOn: false,
    validate: () => (text.trim() ? undefined : { fields: { text: t('invite.empty') } }),
    send: async () => {
      setResult(null);
      try {
        const answer = await context.withProof(() => invitePeople(context.domain, text, context.language));
        setResult(answer);
        if (answer.invited.length > 0) {
          setText('');
          onInvited();
        }
        context.announce(t('invite.done', { count: answer.invited.length }));
      } catch (failure) {
        if (!(failure instanceof ProofCancelled)) throw failure;
        context.announce(t('proofCancelled'));
      }
    },
  });
  const error = submit.fieldErrors.text;

  return (
    <form className="stack admin__invite" onSubmit={submit.onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('invite.title')}</h3>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-text`}>
          {t('invite.label')}
        </label>
        <div className={`field__control admin__textarea-control${error ? ' field__control--error' : ''}`}>
          <textarea
            id={`${id}-text`}
            name="text"
            className="field__input admin__textarea"
            rows={4}
            maxLength={ADMIN_INVITE_TEXT_MAX}
            value={text}
            // A textarea's placeholder wraps, and a browser breaks lines after a hyphen ("acme-⏎corp.test"):
            // its domain gets non-breaking hyphens (U+2011). Only here: a placeholder cannot be copied,
            // found in the page or typed over, and the domain everywhere else keeps its real characters.
            placeholder={t('invite.placeholder', { domain: context.domain.replaceAll('-', '\u2011') })}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-${error ? 'error' : 'hint'}`}
            onChange={(e) => {
              setText(e.target.value);
              submit.clearFieldError('text');
            }}
          />
        </div>
        {error ? (
          <span id={`${id}-error`} className="field__error" role="alert">
            {error}
          </span>
        ) : (
          <span id={`${id}-hint`} className="field__hint">
            {t('invite.hint')}
          </span>
        )}
      </div>
      {submit.error !== null ? <Alert>{submit.error}</Alert> : null}
      {result ? (
        <div className="stack admin__result">
          <Alert variant={result.invited.length > 0 ? 'success' : 'info'}>
            {t('invite.done', { count: result.invited.length })}
          </Alert>
          {result.skipped.length > 0 ? (
            <div>
              <p className="admin__result-title">{t('invite.skipped', { count: result.skipped.length })}</p>
              <ul className="admin__skipped">
                {result.skipped.map((s) => (
                  <li key={`${s.email}:${s.reason}`}>
                    <span className="admin__mono">{s.email}</span> — {t(`invite.reasons.${s.reason}`)}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
      <div>
        <Button type="submit" loading={submit.busy}>
          {t('invite.send')}
        </Button>
      </div>
    </form>
  );
}
