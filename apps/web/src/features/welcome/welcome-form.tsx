import { useState, type ChangeEvent } from 'react';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { ACCEPTED_TERMS_VERSION, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { useGoToMainApp } from '../../lib/main-app';
import { passwordLengthOk } from '../../lib/password-rules';
import { displayNameProblem } from '../../lib/name-rules';
import { currentToken, saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FormSubmit } from '../../components/form-submit';
import { TextField } from '../../components/text-field';
import { PasswordField } from '../../components/password-field';
import { TermsConsent } from '../../components/terms-consent';
import { NoSession } from '../../components/no-session';
import { completeRegister } from './api/complete-register';
import SsoWelcomeForm from './sso-welcome-form';
import '../../components/auth-form.css';

type Field = 'firstName' | 'lastName' | 'password' | 'terms';

/**
 * `/user/welcome`: finish sign-up with name, password and the terms (spec §2, §5); `?sso=1` (an account
 * made by single sign-on) asks for the terms alone.
 */
export default function WelcomeForm() {
  const sso = new URLSearchParams(window.location.search).get('sso') === '1';
  if (!currentToken()) return <WelcomeNoSession />;
  return sso ? <SsoWelcomeForm /> : <PasswordWelcomeForm />;
}

function WelcomeNoSession() {
  const { t } = useTranslation('welcome');
  useDocumentTitle(t('title'));
  return <NoSession title={t('title')} message={t('noSession')} linkTo={userPath('login')} linkText={t('toLogin')} />;
}

function PasswordWelcomeForm() {
  const { t } = useTranslation('welcome');
  useDocumentTitle(t('title'));
  // Used only on submit (useFormSubmit has them loaded by then): not holding the first paint.
  const { t: te } = useTranslation('errors', { useSuspense: false });
  const navigate = useNavigate();
  const goToMainApp = useGoToMainApp();
  const [values, setValues] = useState({ firstName: '', lastName: '', password: '' });
  const [terms, setTerms] = useState(false);
  const passwordError = (value: string) => (passwordLengthOk(value) ? undefined : t('passwordLength'));

  function validate(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    for (const field of ['firstName', 'lastName'] as const) {
      const problem = displayNameProblem(values[field]);
      if (problem) found[field] = problem === 'required' ? t(`${field}Required`) : te(problem);
    }
    if (!values.password) found.password = t('passwordRequired');
    else if (passwordError(values.password)) found.password = passwordError(values.password);
    if (!terms) found.terms = te('ACCEPT_TERMS');
    return found;
  }

  const {
    busy,
    error,
    fieldErrors: errors,
    clearFieldError,
    checkField,
    onSubmit,
  } = useFormSubmit<Field>({
    // One message per problem, at its field (the first one in error takes the focus): no summary repeating them.
    validate: () => ({ fields: validate() }),
    send: async () => {
      const session = await completeRegister({
        first_name: values.firstName.trim(),
        last_name: values.lastName.trim(),
        password: values.password,
        password_confirmation: values.password,
        accepted_terms: { version: ACCEPTED_TERMS_VERSION },
      });
      // Like the code screen and the login: a session that cannot be stored is a failed request.
      if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      // Spec §4, §6: a professional profile invites teammates next; everyone else goes to the main app.
      if (session.profiles[0]?.type === 'PROFESSIONAL') navigate(userPath('add-teammates'), { replace: true });
      else goToMainApp();
    },
  });

  const set = (field: keyof typeof values) => (event: ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    if (event.target.value) clearFieldError(field);
  };

  return (
    <form className="auth-form auth-form--steady" onSubmit={onSubmit} noValidate aria-labelledby="welcome-title">
      <h1 id="welcome-title">{t('title')}</h1>
      <p className="auth-form__lead">{t('lead')}</p>
      <div className="auth-form__row">
        {(['firstName', 'lastName'] as const).map((name) => (
          <TextField
            key={name}
            label={t(name)}
            name={name}
            autoComplete={name === 'firstName' ? 'given-name' : 'family-name'}
            maxLength={100}
            required
            value={values[name]}
            error={errors[name]}
            onChange={set(name)}
          />
        ))}
      </div>
      <PasswordField
        label={t('password')}
        name="password"
        autoComplete="new-password"
        required
        value={values.password}
        error={errors.password}
        hint={t('passwordHint', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
        onChange={set('password')}
        onBlur={(e) => checkField('password', e.target.value, passwordError)}
      />
      <TermsConsent
        ns="welcome"
        checked={terms}
        error={errors.terms}
        onChange={(checked) => {
          setTerms(checked);
          if (checked) clearFieldError('terms');
        }}
      />
      <FormSubmit error={error} busy={busy} label={t('submit')} />
    </form>
  );
}
