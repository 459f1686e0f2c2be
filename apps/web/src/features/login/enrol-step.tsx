import { useEffect, useState, type FormEvent } from 'react';
import { CODE_LENGTH, type Language, type TotpSetupResponse } from '@suite/contract/core';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PageLoading } from '../../components/page-loading';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n-react';
import { useGoToMainApp } from '../../lib/main-app';
import { saveSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { enrol, enrolSetup } from './api/enrol';
import type { PendingSecondStep } from './second-step';
import '../../components/auth-form.css';

/**
 * After the password, for a domain that requires two-step verification and a person without a second
 * factor: the app's QR code and secret, the app's first code, then the recovery codes to save; only then
 * the session is used. A pending sign-in that ran out sends the person back to the password with the reason.
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
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const expired = (caught: unknown) => caught instanceof ApiError && caught.code === 'ERR_SECOND_STEP_EXPIRED';

  useEffect(() => {
    enrolSetup({ email: pending.email, pending_token: pending.pendingToken }).then(setSetup, (caught: unknown) =>
      onExpired(caught),
    );
  }, [pending, onExpired]);

  const submit = useFormSubmit<'code'>({
    movesOn: false,
    validate: () => ({
      fields: {
        code: new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code) ? undefined : t('enrol.codeInvalid', { n: CODE_LENGTH }),
      },
    }),
    send: async () => {
      const answer = await enrol({
        email: pending.email,
        pending_token: pending.pendingToken,
        code,
        language: i18n.language as Language,
      });
      if (!saveSession(answer)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      setCodes(answer.recovery_codes);
    },
    failure: (caught) => {
      if (expired(caught)) {
        onExpired(caught);
        return null;
      }
      return { form: caught };
    },
  });

  if (codes) {
    return (
      <div className="auth-form">
        <h1>{t('enrol.doneTitle')}</h1>
        <p className="auth-form__lead">{t('enrol.codesLead')}</p>
        <ul className="enrol__codes" aria-label={t('enrol.codesLabel')}>
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <Button block onClick={goToMainApp}>
          {t('submit')}
        </Button>
      </div>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => submit.onSubmit(event);
  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="enrol-title">
      <h1 id="enrol-title">{t('enrol.title')}</h1>
      <p className="auth-form__lead">{t('enrol.lead', { n: CODE_LENGTH })}</p>
      {!setup ? (
        <PageLoading />
      ) : (
        <>
          <img
            className="enrol__qr"
            width={180}
            height={180}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
            alt={t('enrol.qrAlt')}
          />
          <p className="auth-form__small">
            {t('enrol.secret')} <code data-testid="enrol-secret">{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
          <TextField
            label={t('label')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={CODE_LENGTH}
            {...submit.field('code', code, (value) => setCode(value.replace(/\D/g, '')))}
          />
          {submit.error !== null ? <Alert>{submit.error}</Alert> : null}
          <Button type="submit" block loading={submit.busy}>
            {t('enrol.confirm')}
          </Button>
        </>
      )}
    </form>
  );
}
