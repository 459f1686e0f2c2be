import type { FormEvent, ReactNode, RefObject } from 'react';
import { CODE_LENGTH } from '@suite/contract/core';
import { useTranslation } from '../lib/i18n-react';
import { Alert } from './alert';
import { Button } from './button';
import { WithAddress } from './address';
import { CodeBoxes, type CodeBoxesHandle } from './code-boxes';
import { TextField, type TextFieldProps } from './text-field';
import './auth-form.css';

/**
 * The body of every step that asks for the authenticator app's code (the sign-in's second step, a new
 * password after recovery): the heading, a lead in the caller's words, six boxes that send themselves
 * or a recovery code in a field, the error, and two quiet links (back; the other kind of code). No
 * primary button while the boxes send themselves. What sending means, and what an error says, stay
 * with the caller.
 */
export function SecondFactorStep({
  titleId,
  email,
  lead,
  recovery,
  onRecoveryChange,
  boxes,
  onCode,
  recoveryField,
  onRecoverySubmit,
  submitLabel,
  busy,
  error,
  onType,
  backLabel,
  onBack,
  extra,
  testId,
}: {
  titleId: string;
  email: string;
  /** The lead under the heading, for the app's code and for a recovery code ({{email}} filled in). */
  lead: { app: string; recovery: string };
  recovery: boolean;
  onRecoveryChange: (recovery: boolean) => void;
  boxes: RefObject<CodeBoxesHandle | null>;
  /** The sixth digit landed: the code to send. */
  onCode: (code: string) => void;
  /** The recovery code field's value, change handler and, where the caller has one, its own message. */
  recoveryField: Pick<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'required'>;
  onRecoverySubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  busy: boolean;
  /** The last send's failure, in words (null: none). */
  error: ReactNode | null;
  /** A key typed in the boxes (the caller clears a stale error). */
  onType: () => void;
  backLabel: string;
  onBack: () => void;
  /** What follows the code in either mode (the sign-in's "Trust this browser"). */
  extra?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation('loginStep');
  return (
    <div className="auth-form" aria-busy={busy || undefined} data-testid={testId}>
      <h1 id={titleId}>{recovery ? t('recoveryTitle') : t('title')}</h1>
      <p className="auth-form__lead">
        <WithAddress email={email} text={recovery ? lead.recovery : lead.app} />
      </p>
      {recovery ? (
        <form className="stack" onSubmit={onRecoverySubmit} noValidate aria-labelledby={titleId}>
          <TextField
            label={t('recovery')}
            hint={t('recoveryHint')}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            {...recoveryField}
          />
          {extra}
          {error !== null && <Alert>{error}</Alert>}
          <Button type="submit" block loading={busy}>
            {submitLabel}
          </Button>
        </form>
      ) : (
        <>
          <CodeBoxes
            ref={boxes}
            label={t('label')}
            digitLabel={(n) => t('digit', { n, total: CODE_LENGTH })}
            onComplete={onCode}
            busy={busy}
            invalid={error !== null}
            onType={onType}
          />
          {busy ? <p className="auth-form__small muted center-text">{t('checking')}</p> : null}
          {error !== null && <Alert>{error}</Alert>}
          {extra}
        </>
      )}
      <div className="auth-form__links">
        <Button variant="link" className="auth-form__quiet" onClick={onBack} disabled={busy}>
          {backLabel}
        </Button>
        <Button variant="link" className="auth-form__quiet" onClick={() => onRecoveryChange(!recovery)}>
          {recovery ? t('useApp') : t('useRecovery')}
        </Button>
      </div>
    </div>
  );
}
