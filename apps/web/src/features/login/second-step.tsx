import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n-react';
import { CODE_LENGTH } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { captchaToken } from '../../lib/captcha';
import { useConfig } from '../../lib/config';
import { useGoToMainApp } from '../../lib/main-app';
import { saveSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { Checkbox } from '../../components/checkbox';
import { WithDomain } from '../../components/address';
import type { CodeBoxesHandle } from '../../components/code-boxes';
import { SecondFactorStep } from '../../components/second-factor-step';
import { answerSecondStep } from './api/second-step';
import './login.css';

/** A wrong code at this step (the step's own answer, or the app-code one). */
const WRONG_CODE = new Set(['ERR_SECOND_STEP_INVALID', 'ERR_TOTP_CODE_INVALID']);

export interface PendingSecondStep {
  pendingToken: string;
  email: string;
  /** The domain lets this step trust the browser ("Trust this browser for 30 days"). */
  trustAllowed?: boolean;
}

/**
 * The code step after the password of an account with two-step verification: six boxes for the app's
 * code (sent as the sixth digit lands), or a recovery code; the lead says which. "Trust this browser for
 * 30 days" follows the code, as one reads; the sixth digit still sends at once, so the box counts when
 * ticked before that digit (its state is read at sending time). A pending step that ran out (time, or too many wrong codes) sends the person back to the
 * password with the reason.
 */
export default function SecondStep({
  pending,
  onExpired,
}: {
  pending: PendingSecondStep;
  onExpired: (reason: unknown) => void;
}) {
  const { t } = useTranslation('loginStep');
  useDocumentTitle(t('title'));
  const config = useConfig();
  const goToMainApp = useGoToMainApp();
  const boxes = useRef<CodeBoxesHandle>(null);
  const [recovery, setRecovery] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [trust, setTrust] = useState(false);
  // Read when the code is sent (the sixth digit sends it), not from the render that made the handler.
  const trusted = useRef(false);
  const changeTrust = (on: boolean) => {
    trusted.current = on;
    setTrust(on);
  };
  const submit = useFormSubmit<'recovery-code'>({
    failure: (caught) => {
      if (caught instanceof ApiError && caught.code === 'ERR_SECOND_STEP_EXPIRED') {
        onExpired(caught);
        return null;
      }
      boxes.current?.clear();
      // The catalogue's text names both kinds of code; here only a recovery code was asked for. Said at
      // the field it is about (marked invalid), not under the trust box.
      if (recovery && caught instanceof ApiError && WRONG_CODE.has(caught.code)) {
        return { field: 'recovery-code', message: t('wrongRecovery') };
      }
      return { form: caught };
    },
  });
  const { busy, error, setError } = submit;

  const check = (code: string, form: HTMLElement | null = null) =>
    submit.run(form, async () => {
      const body = {
        email: pending.email,
        pending_token: pending.pendingToken,
        code,
        ...(trusted.current && pending.trustAllowed ? { trust_browser: true } : {}),
      };
      const session = await answerSecondStep(body).catch(async (caught: unknown) => {
        // Many failed checks on this address from anywhere: a captcha answer is asked (docs/security.md).
        if (!(caught instanceof ApiError && caught.code === 'ERR_CAPTCHA_REQUIRED')) throw caught;
        const captcha = await captchaToken(config.captchaSiteKey, 'code');
        if (!captcha) throw caught;
        return answerSecondStep({ ...body, captcha_token: captcha });
      });
      if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      goToMainApp();
    });

  const trustBox = pending.trustAllowed ? (
    <Checkbox checked={trust} onChange={changeTrust} name="trust">
      {t('trust')}
      <span className="field__hint login__trust-hint">
        <WithDomain text={t('trustHint', { email: pending.email })} domain={pending.email} />
      </span>
    </Checkbox>
  ) : null;

  return (
    <SecondFactorStep
      titleId="step-title"
      email={pending.email}
      lead={{
        app: t('lead', { n: CODE_LENGTH, email: pending.email }),
        recovery: t('leadRecovery', { email: pending.email }),
      }}
      recovery={recovery}
      onRecoveryChange={(on) => {
        setRecovery(on);
        setError(null);
        submit.clearFieldError('recovery-code');
      }}
      boxes={boxes}
      onCode={(code) => void check(code)}
      recoveryField={{ ...submit.field('recovery-code', recoveryCode, setRecoveryCode), required: false }}
      onRecoverySubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        if (recoveryCode.trim()) void check(recoveryCode.trim(), event.currentTarget);
      }}
      submitLabel={t('submit')}
      busy={busy}
      error={error}
      onType={() => setError(null)}
      backLabel={t('back')}
      onBack={() => onExpired(null)}
      extra={trustBox}
    />
  );
}
