import { useCallback, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n-react';
import { CODE_LENGTH, type SecurityState } from '@suite/contract/core';
import { Alert } from './alert';
import { Button } from './button';
import { ModalDialog } from './modal-dialog';
import { PasswordField } from './password-field';
import { TextField } from './text-field';
import { ApiError } from '../lib/api-client';
import { reauthenticate, ssoReauthUrl } from '../lib/reauth';
import { useFormSubmit } from '../lib/use-form-submit';
import './fresh-proof.css';

type Method = NonNullable<SecurityState['reauth']>[number];

/** The person closed the fresh-proof dialog: the change was not made, and there is nothing to say. */
export class ProofCancelled extends Error {}

const proofRequired = (error: unknown) => error instanceof ApiError && error.code === 'ERR_PROOF_REQUIRED';

interface Pending {
  resolve: () => void;
  reject: (reason: unknown) => void;
}

/**
 * A change that needs a recent proof (a passkey, two-step verification, an administrator's action) refused with ERR_PROOF_REQUIRED: the last proof
 * of this session is older than the server allows. `withProof` runs the change; on that refusal it
 * opens the dialog (password, app code or passkey; for a single-sign-on account the provider), and
 * once the proof is given it runs the change again, once. Closing the dialog rejects with
 * ProofCancelled.
 */
export function useFreshProof(methods: readonly Method[] | undefined) {
  const [pending, setPending] = useState<Pending | null>(null);
  const withProof = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (failure) {
      if (!proofRequired(failure)) throw failure;
      await new Promise<void>((resolve, reject) => setPending({ resolve, reject }));
      return action();
    }
  }, []);
  const dialog: ReactNode = pending ? (
    <FreshProofDialog
      methods={methods && methods.length > 0 ? methods : ['password']}
      onProved={() => {
        setPending(null);
        pending.resolve();
      }}
      onCancel={() => {
        setPending(null);
        pending.reject(new ProofCancelled());
      }}
    />
  ) : null;
  return { withProof, dialog };
}

function FreshProofDialog({
  methods,
  onProved,
  onCancel,
}: {
  methods: readonly Method[];
  onProved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('security');
  const titleId = useId();
  const textId = useId();
  const typed = methods.filter((m): m is 'password' | 'totp' => m === 'password' || m === 'totp');
  const [mode, setMode] = useState<'password' | 'totp' | null>(typed[0] ?? null);
  const [value, setValue] = useState('');
  const submit = useFormSubmit({
    movesOn: false,
    // Says what the field in front of the person asks for: the password, or the code of the app.
    validate: () =>
      mode && !value.trim()
        ? { form: t(mode === 'totp' ? 'proof.requiredCode' : 'proof.requiredPassword') }
        : undefined,
  });

  const prove = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit.run(event.currentTarget, async () => {
      if (mode === 'password') await reauthenticate({ method: 'password', password: value });
      else if (mode === 'totp') await reauthenticate({ method: 'totp', code: value.trim() });
      onProved();
    });
  };
  const passkey = () =>
    submit.run(null, async () => {
      const { provePasskey, PasskeyCancelled } = await import('../lib/webauthn');
      try {
        await provePasskey();
        onProved();
      } catch (failure) {
        if (!(failure instanceof PasskeyCancelled)) throw failure;
      }
    });
  // The provider signs the person in again and sends the browser back to the Security panel.
  const sso = () =>
    submit.run(null, async () => {
      window.location.assign((await ssoReauthUrl()).url);
    });
  const other = typed.find((m) => m !== mode);

  return (
    <ModalDialog titleId={titleId} describedBy={textId} className="dialog--task fresh-proof" onClose={onCancel}>
      <form className="stack" onSubmit={prove} noValidate>
        <h2 id={titleId}>{t('proof.title')}</h2>
        <p id={textId} className="dialog__text">
          {mode ? t('proof.text') : t('proof.ssoText')}
        </p>
        {mode === 'password' ? (
          <PasswordField
            label={t('proof.password')}
            autoComplete="current-password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoFocus
          />
        ) : mode === 'totp' ? (
          <TextField
            label={t('proof.code', { n: CODE_LENGTH })}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={CODE_LENGTH}
            value={value}
            onChange={(e) => setValue(e.target.value.replace(/\D/g, ''))}
            autoFocus
          />
        ) : null}
        {submit.error !== null && <Alert>{submit.error}</Alert>}
        <div className="fresh-proof__others">
          {other ? (
            <Button
              type="button"
              variant="link"
              onClick={() => {
                setMode(other);
                setValue('');
                submit.setError(null);
              }}
            >
              {other === 'totp' ? t('proof.useCode') : t('proof.usePassword')}
            </Button>
          ) : null}
        </div>
        <div className="dialog__actions">
          <Button type="button" variant="secondary" onClick={onCancel} disabled={submit.busy}>
            {t('cancel')}
          </Button>
          {methods.includes('passkey') ? (
            <Button type="button" variant="secondary" onClick={() => void passkey()} disabled={submit.busy}>
              {t('proof.passkey')}
            </Button>
          ) : null}
          {mode ? (
            <Button type="submit" loading={submit.busy}>
              {t('proof.confirm')}
            </Button>
          ) : methods.includes('sso') ? (
            <Button type="button" onClick={() => void sso()} loading={submit.busy}>
              {t('proof.sso')}
            </Button>
          ) : null}
        </div>
      </form>
    </ModalDialog>
  );
}
