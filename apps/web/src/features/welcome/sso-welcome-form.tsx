import { useState } from 'react';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { ACCEPTED_TERMS_VERSION, ACCOUNT_API } from '@suite/contract/core';
import { ApiError, apiRequest, lazySchema } from '../../lib/api-client';
import { useGoToMainApp } from '../../lib/main-app';
import { saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FormSubmit } from '../../components/form-submit';
import { TermsConsent } from '../../components/terms-consent';
import '../../components/auth-form.css';

/**
 * The welcome step of an account made by single sign-on: the provider vouched for the person and gave
 * the names, but only the person accepts our terms. No password (the provider keeps that).
 */
export default function SsoWelcomeForm() {
  const { t } = useTranslation('welcome');
  // Used only on submit (useFormSubmit has them loaded by then): not holding the first paint.
  const { t: te } = useTranslation('errors', { useSuspense: false });
  useDocumentTitle(t('title'));
  const navigate = useNavigate();
  const goToMainApp = useGoToMainApp();
  const [terms, setTerms] = useState(false);
  const { busy, error, fieldErrors, clearFieldError, onSubmit } = useFormSubmit<'terms'>({
    validate: () => ({ fields: { terms: terms ? undefined : te('ACCEPT_TERMS') } }),
    send: async () => {
      const session = await apiRequest({
        method: 'PUT',
        path: ACCOUNT_API.ssoCompleteRegister,
        body: { accepted_terms: { version: ACCEPTED_TERMS_VERSION } },
        auth: true,
        schema: lazySchema('SessionResponseSchema'),
      });
      if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      if (session.profiles[0]?.type === 'PROFESSIONAL') navigate(userPath('add-teammates'), { replace: true });
      else goToMainApp();
    },
  });
  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="welcome-title">
      <h1 id="welcome-title">{t('title')}</h1>
      <p className="auth-form__lead">{t('ssoLead')}</p>
      <TermsConsent
        ns="welcome"
        checked={terms}
        error={fieldErrors.terms}
        onChange={(checked) => {
          setTerms(checked);
          if (checked) clearFieldError('terms');
        }}
      />
      <FormSubmit error={error} busy={busy} label={t('ssoSubmit')} />
    </form>
  );
}
