import { useCallback, useEffect, useId, useState } from 'react';
import { SIGNUP_MODES, type SignupMode, type SignupRules } from '@suite/contract';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { ProofCancelled } from '../../../components/fresh-proof';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { useTranslation } from '../../../lib/i18n-react';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { getSignupRules, saveSignupRules } from '../api/signup-rules';
import type { AdminContext } from '../lib/admin-context';
import { WithDomain } from '../../../components/address';

type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; rules: SignupRules };

/**
 * Who may make an account with an address of the domain: anyone, only the invited, or anyone an
 * administrator approves; single sign-on only (offered when a connection exists and this session came
 * through it, else shown off with the reason); the free plan's seats.
 */
export function SignupRulesSection(context: AdminContext) {
  const { t } = useTranslation('admin');
  const { domain } = context;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [mode, setMode] = useState<SignupMode>('open');
  const [ssoOnly, setSsoOnly] = useState(false);
  const [saved, setSaved] = useState(false);
  const modeName = useId();

  const show = useCallback((rules: SignupRules) => {
    setState({ status: 'ready', rules });
    setMode(rules.mode);
    setSsoOnly(rules.sso_only);
  }, []);
  const load = useCallback(() => {
    setState({ status: 'loading' });
    getSignupRules(domain).then(show, (error: unknown) => setState({ status: 'error', error }));
  }, [domain, show]);
  useEffect(load, [load]);

  const submit = useFormSubmit({
    movesOn: false,
    send: async () => {
      if (state.status !== 'ready') return;
      setSaved(false);
      const change = {
        ...(mode !== state.rules.mode ? { mode } : {}),
        ...(ssoOnly !== state.rules.sso_only ? { sso_only: ssoOnly } : {}),
      };
      try {
        show(await context.withProof(() => saveSignupRules(domain, change)));
        setSaved(true);
        context.announce(t('signup.saved'));
      } catch (failure) {
        if (!(failure instanceof ProofCancelled)) throw failure;
        context.announce(t('proofCancelled'));
      }
    },
  });

  const rules = state.status === 'ready' ? state.rules : null;
  // SSO-only can always be turned off; on only when the server says it may be.
  const ssoLocked = rules !== null && !rules.sso_only && !rules.sso_only_available;
  const changed = rules !== null && (mode !== rules.mode || ssoOnly !== rules.sso_only);

  return (
    <section className="card stack admin__section" aria-labelledby="signup-title">
      <div>
        <h2 id="signup-title">{t('signup.title')}</h2>
        <p className="muted admin__intro">
          <WithDomain text={t('signup.intro', { domain })} domain={domain} />
        </p>
      </div>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={load} />}
      {rules !== null && (
        <form className="stack" onSubmit={submit.onSubmit} noValidate>
          <fieldset className="admin__choices">
            <legend className="admin__legend">{t('signup.mode')}</legend>
            {SIGNUP_MODES.map((m) => (
              <label key={m} className="admin__choice">
                <input
                  type="radio"
                  name={modeName}
                  value={m}
                  checked={mode === m}
                  onChange={() => {
                    setMode(m);
                    setSaved(false);
                  }}
                />
                <span>
                  <strong>{t(`signup.modes.${m}.title`)}</strong>
                  <span className="muted admin__choice-text">{t(`signup.modes.${m}.text`)}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="stack admin__sso-only">
            {ssoLocked ? (
              <div className="field">
                <div className="check">
                  <input
                    id={`${modeName}-sso`}
                    type="checkbox"
                    checked={false}
                    disabled
                    aria-describedby={`${modeName}-why`}
                  />
                  <label htmlFor={`${modeName}-sso`}>{t('signup.ssoOnly')}</label>
                </div>
              </div>
            ) : (
              <Checkbox
                checked={ssoOnly}
                onChange={(checked) => {
                  setSsoOnly(checked);
                  setSaved(false);
                }}
              >
                {t('signup.ssoOnly')}
              </Checkbox>
            )}
            <p id={`${modeName}-why`} className="muted admin__hint">
              {ssoLocked
                ? t(rules.sso_connection ? 'signup.ssoOnlyNotThroughIt' : 'signup.ssoOnlyNoConnection')
                : t('signup.ssoOnlyText')}
            </p>
          </div>
          <p className="admin__seats">
            {rules.seats.limit === null
              ? t('signup.seatsUnlimited', { count: rules.seats.used })
              : t('signup.seats', { used: rules.seats.used, limit: rules.seats.limit })}
          </p>
          {submit.error !== null ? <Alert>{submit.error}</Alert> : null}
          {saved && !changed ? <Alert variant="success">{t('signup.saved')}</Alert> : null}
          <div>
            <Button type="submit" loading={submit.busy} disabled={!changed}>
              {t('save')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
