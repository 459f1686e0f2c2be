import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { CODE_LENGTH, type SecurityState, type TotpSetupResponse } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { CodeBoxes, type CodeBoxesHandle } from '../../../components/code-boxes';
import { PasswordField } from '../../../components/password-field';
import { TextField } from '../../../components/text-field';
import { RecoveryCodes, TotpKey } from '../../../components/totp-enrolment';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { confirmTotp, disableTotp, newRecoveryCodes, startTotp } from '../api/security';
import { ProofCancelled } from '../../../components/fresh-proof';
import { ModalDialog } from '../../../components/modal-dialog';
import '../../../components/destructive.css';

type Step =
  | { kind: 'idle' }
  | { kind: 'setup'; setup: TotpSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'renew' }
  | { kind: 'disable' };

interface Props {
  security: SecurityState;
  onChanged: (on: boolean, recoveryCodesLeft: number) => void;
  announce: (text: string) => void;
  /** Runs a change, asking for a fresh proof first when the server wants one (fresh-proof.tsx). */
  withProof: <T>(action: () => Promise<T>) => Promise<T>;
}

/**
 * Two-step verification with an authenticator app: off → "Turn on" shows the QR code (an SVG the server
 * drew, shown as an image: nothing of it runs) and the key as text, confirmed by one code in the six
 * boxes; then the 10 recovery codes, once. On → "Turn off" asks for the password and a code.
 */
export function TwoStep({ security, onChanged, announce, withProof }: Props) {
  const { t, i18n } = useTranslation('security');
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const boxes = useRef<CodeBoxesHandle>(null);
  const turnOnRef = useRef<HTMLButtonElement>(null);
  const headingId = 'two-step-title';
  const setupTitleId = useId();
  // One submit hook for the three steps (turn on, confirm the code, turn off): one runs at a time.
  const submit = useFormSubmit({
    movesOn: false,
    validate: () =>
      step.kind === 'disable' && (!password || !code.trim()) ? { form: t('totp.offRequired') } : undefined,
    failure: (failure) => {
      if (failure instanceof ProofCancelled) return null; // closed the dialog: nothing changed, nothing to say
      boxes.current?.clear(); // a wrong code is typed again from the first box
      return { form: failure };
    },
  });
  const { busy, error, setError } = submit;

  const begin = () =>
    submit.run(null, async () => setStep({ kind: 'setup', setup: await withProof(() => startTotp()) }));

  const confirm = (typed: string) =>
    submit.run(null, async () => {
      const { recovery_codes } = await withProof(() => confirmTotp(typed, i18n.language));
      onChanged(true, recovery_codes.length);
      setStep({ kind: 'codes', codes: recovery_codes });
      announce(t('totp.turnedOn'));
    });

  // New recovery codes: the app's code says the phone is still at hand; the old codes stop working.
  const renew = (typed: string) =>
    submit.run(null, async () => {
      const { recovery_codes } = await withProof(() => newRecoveryCodes(typed, i18n.language));
      onChanged(true, recovery_codes.length);
      setStep({ kind: 'codes', codes: recovery_codes });
      announce(t('codes.renewed'));
    });

  const turnOff = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit.run(event.currentTarget, async () => {
      await disableTotp(password, code.trim(), i18n.language);
      onChanged(false, 0);
      setStep({ kind: 'idle' });
      setPassword('');
      setCode('');
      announce(t('totp.turnedOff'));
    });
  };

  const cancel = () => {
    setStep({ kind: 'idle' });
    setError(null);
  };

  // The dialog's one primary action: the boxes send a complete code by themselves; the button sends the
  // code again after a refusal was typed over, or says what is missing.
  const [typed, setTyped] = useState('');
  const send = () =>
    typed.length === CODE_LENGTH ? void confirm(typed) : setError(t('totp.enterCode', { n: CODE_LENGTH }));
  const setupDialog =
    step.kind === 'setup' ? (
      <ModalDialog
        titleId={setupTitleId}
        className="dialog--task totp-dialog"
        onClose={cancel}
        returnFocus={() => turnOnRef.current}
      >
        <form
          className="stack"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <h2 id={setupTitleId}>{t('totp.setupTitle')}</h2>
          <ol className="security__steps">
            <li>
              <TotpKey setup={step.setup} />
            </li>
            <li>
              <p>{t('totp.enterCode', { n: CODE_LENGTH })}</p>
              <CodeBoxes
                ref={boxes}
                label={t('totp.codeLabel')}
                digitLabel={(n) => t('totp.digit', { n, total: CODE_LENGTH })}
                onComplete={(code) => {
                  setTyped(code);
                  void confirm(code);
                }}
                busy={busy}
                invalid={error !== null}
                onType={() => {
                  setTyped('');
                  setError(null);
                }}
              />
            </li>
          </ol>
          {error !== null && <Alert>{error}</Alert>}
          <div className="dialog__actions">
            <Button type="button" variant="secondary" onClick={cancel} disabled={busy}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('proof.confirm')}
            </Button>
          </div>
        </form>
      </ModalDialog>
    ) : null;

  return (
    <div className="stack security__part">
      <h3 id={headingId}>{t('totp.title')}</h3>
      <p className="muted security__text">{t('totp.intro')}</p>
      {!security.totp_available ? (
        <p className="security__none">{t('totp.sso')}</p>
      ) : step.kind === 'codes' ? (
        <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />
      ) : step.kind === 'renew' ? (
        <div className="stack security__setup">
          <p id="renew-code-label">{t('codes.renewLead', { n: CODE_LENGTH })}</p>
          <CodeBoxes
            ref={boxes}
            label={t('totp.codeLabel')}
            digitLabel={(n) => t('totp.digit', { n, total: CODE_LENGTH })}
            onComplete={(typed) => void renew(typed)}
            busy={busy}
            invalid={error !== null}
            onType={() => setError(null)}
          />
          {error !== null && <Alert>{error}</Alert>}
          <div className="security__actions">
            <Button variant="secondary" onClick={cancel} disabled={busy}>
              {t('cancel')}
            </Button>
          </div>
        </div>
      ) : step.kind === 'disable' ? (
        <form className="stack security__setup" onSubmit={turnOff} noValidate>
          <PasswordField
            label={t('totp.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoFocus
          />
          <TextField
            label={t('totp.offCode')}
            hint={t('totp.offCodeHint')}
            autoComplete="one-time-code"
            inputMode="text"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          {error !== null && <Alert>{error}</Alert>}
          <div className="security__actions">
            <Button variant="secondary" onClick={cancel} disabled={busy}>
              {t('cancel')}
            </Button>
            <Button type="submit" variant="danger" loading={busy}>
              {t('totp.turnOff')}
            </Button>
          </div>
        </form>
      ) : (
        <>
          <p className="security__state">
            {security.totp ? (
              <>
                <span className="security__badge security__badge--on">{t('totp.on')}</span>{' '}
                {t('totp.codesLeft', { count: security.recovery_codes_left })}
              </>
            ) : (
              <span className="security__badge">{t('totp.off')}</span>
            )}
          </p>
          {error !== null && step.kind === 'idle' && <Alert>{error}</Alert>}
          <div className="security__actions">
            {security.totp ? (
              <>
                <Button variant="secondary" onClick={() => setStep({ kind: 'renew' })}>
                  {t('codes.renew')}
                </Button>
                <Button variant="quiet-danger" onClick={() => setStep({ kind: 'disable' })}>
                  {t('totp.turnOff')}
                </Button>
              </>
            ) : (
              <Button
                ref={turnOnRef}
                variant="secondary"
                onClick={() => void begin()}
                loading={busy && step.kind === 'idle'}
              >
                {t('totp.turnOn')}
              </Button>
            )}
          </div>
          {setupDialog}
        </>
      )}
    </div>
  );
}
