import { useEffect, useRef, useState } from 'react';
import { CODE_LENGTH, type TotpSetupResponse } from '@suite/contract/core';
import { useTranslation } from '../../lib/i18n-react';
import { ApiError } from '../../lib/api-client';
import { useGoToMainApp } from '../../lib/main-app';
import { saveSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { WithAddress } from '../../components/address';
import { CodeBoxes, type CodeBoxesHandle } from '../../components/code-boxes';
import { PageLoading } from '../../components/page-loading';
import { RecoveryCodes, TotpKey } from '../../components/totp-enrolment';
import { enrol, enrolSetup } from './api/enrol';
import type { PendingSecondStep } from './second-step';
import '../../components/auth-form.css';
import './login.css';

/**
 * After the password, when the person's domain requires two-step verification and they have no second
 * factor: no session yet. The app's QR code and key, the app's first code, then the recovery codes
 * (shown once); only then the home, with a session that already carries the second factor. A pending
 * sign-in that ran out sends the person back to the password with the reason.
 */
export default function EnrolStep({
  pending,
  onExpired,
}: {
  pending: PendingSecondStep;
  onExpired: (reason: unknown) => void;
}) {
  const { t, i18n } = useTranslation('loginStep');
  useDocumentTitle(t('enrol.title'));
  const goToMainApp = useGoToMainApp();
  const boxes = useRef<CodeBoxesHandle>(null);
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const expired = (caught: unknown) => caught instanceof ApiError && caught.code === 'ERR_SECOND_STEP_EXPIRED';
  const submit = useFormSubmit({
    movesOn: false,
    failure: (caught) => {
      if (expired(caught)) {
        onExpired(caught);
        return null;
      }
      boxes.current?.clear();
      return { form: caught };
    },
  });
  const { busy, error, setError } = submit;
  const credentials = { email: pending.email, pending_token: pending.pendingToken };

  // The secret is asked for once the step is up (the server makes a new one on each call until confirmed).
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void submit.run(null, async () => setSetup(await enrolSetup(credentials)));
    // Once per pending sign-in: the step is remounted for another one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const confirm = (code: string) =>
    submit.run(null, async () => {
      const answer = await enrol({ ...credentials, code, language: i18n.language });
      if (!saveSession(answer)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      setCodes(answer.recovery_codes);
    });

  if (codes) {
    return (
      <div className="auth-form">
        <RecoveryCodes codes={codes} onDone={goToMainApp} doneLabel={t('enrol.continue')} heading="h1" />
      </div>
    );
  }

  return (
    <div className="auth-form" aria-busy={busy || undefined}>
      <h1 id="enrol-title">{t('enrol.title')}</h1>
      <p className="auth-form__lead">
        <WithAddress email={pending.email} text={t('enrol.lead', { email: pending.email })} />
      </p>
      {setup ? (
        <ol className="totp__steps">
          <li>
            <TotpKey setup={setup} />
          </li>
          <li>
            <p id="enrol-code-label">{t('enrol.enterCode', { n: CODE_LENGTH })}</p>
            <CodeBoxes
              ref={boxes}
              label={t('label')}
              digitLabel={(n) => t('digit', { n, total: CODE_LENGTH })}
              onComplete={(code) => void confirm(code)}
              busy={busy}
              invalid={error !== null}
              onType={() => setError(null)}
            />
            {busy ? <p className="auth-form__small muted center-text">{t('checking')}</p> : null}
          </li>
        </ol>
      ) : error === null ? (
        <PageLoading />
      ) : null}
      {error !== null && <Alert>{error}</Alert>}
      {/* The code sends itself: no primary button competes with it, and the way back is a quiet link. */}
      <div className="auth-form__links">
        <Button variant="link" className="auth-form__quiet" onClick={() => onExpired(null)} disabled={busy}>
          {t('back')}
        </Button>
      </div>
    </div>
  );
}
