import { useRef, useState, type FormEvent } from 'react';
import { CODE_LENGTH } from '@suite/contract/core';
import { useTranslation } from '../../lib/i18n-react';
import type { CodeBoxesHandle } from '../../components/code-boxes';
import { SecondFactorStep } from '../../components/second-factor-step';

/**
 * The new password's second step when the account has two-step verification: the server says so only
 * when the password is sent (the recovery token may not read the account's factors), so the code is a
 * calm step of its own, as at sign-in: six boxes that send themselves, or a recovery code. Nothing is in
 * error before the person has seen the question.
 */
export function PasswordCodeStep({
  email,
  busy,
  error,
  onSend,
  onBack,
  onType,
}: {
  email: string;
  busy: boolean;
  /** The last send's failure, already in words (null: none). */
  error: string | null;
  /** Sends the new password with this code (a refusal is in `error` afterwards). */
  onSend: (code: string) => Promise<void>;
  onBack: () => void;
  onType: () => void;
}) {
  const { t } = useTranslation('updatePassword');
  const boxes = useRef<CodeBoxesHandle>(null);
  const [recovery, setRecovery] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const send = (code: string) =>
    void onSend(code).finally(() => {
      // A refused code leaves the boxes ready for the next one (a code that worked has left the screen).
      boxes.current?.clear();
    });
  return (
    <SecondFactorStep
      testId="update-code-step"
      titleId="update-code-title"
      email={email}
      lead={{ app: t('codeLead', { n: CODE_LENGTH, email }), recovery: t('codeLeadRecovery', { email }) }}
      recovery={recovery}
      onRecoveryChange={(on) => {
        setRecovery(on);
        onType();
      }}
      boxes={boxes}
      onCode={send}
      recoveryField={{
        value: recoveryCode,
        onChange: (e) => {
          setRecoveryCode(e.target.value);
          onType();
        },
      }}
      onRecoverySubmit={(event: FormEvent) => {
        event.preventDefault();
        if (recoveryCode.trim()) send(recoveryCode.trim());
      }}
      submitLabel={t('submit')}
      busy={busy}
      error={error}
      onType={onType}
      backLabel={t('back')}
      onBack={onBack}
    />
  );
}
