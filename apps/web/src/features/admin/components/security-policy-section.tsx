import { useCallback, useEffect, useId, useState } from 'react';
import {
  SESSION_IDLE_MAX_MS,
  SESSION_IDLE_MIN_MS,
  SESSION_LIFETIME_MAX_MS,
  SESSION_LIFETIME_MIN_MS,
  TWO_STEP_GRACE_MAX_DAYS,
  type SecurityPolicy,
} from '@suite/contract';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { ProofCancelled } from '../../../components/fresh-proof';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { TextField } from '../../../components/text-field';
import { useTranslation, type TFunction } from '../../../lib/i18n-react';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { getSecurityPolicy, saveSecurityPolicy } from '../api/security-policy';
import type { AdminContext } from '../lib/admin-context';
import { formatWhen } from '../lib/format';

type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; policy: SecurityPolicy };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The durations offered (a policy set to another one by the API shows it too); '' is the server's default. */
const LIFETIMES = [HOUR, 8 * HOUR, DAY, 7 * DAY, 14 * DAY, 30 * DAY].filter(
  (ms) => ms >= SESSION_LIFETIME_MIN_MS && ms <= SESSION_LIFETIME_MAX_MS,
);
const IDLE = [15 * MINUTE, HOUR, 8 * HOUR, DAY, 7 * DAY, 30 * DAY].filter(
  (ms) => ms >= SESSION_IDLE_MIN_MS && ms <= SESSION_IDLE_MAX_MS,
);

/** A duration in words, in the largest whole unit ("8 hours", "7 days"). */
function duration(ms: number, t: TFunction): string {
  if (ms % DAY === 0) return t('policy.days', { count: ms / DAY });
  if (ms % HOUR === 0) return t('policy.hours', { count: ms / HOUR });
  return t('policy.minutes', { count: Math.round(ms / MINUTE) });
}

/**
 * The domain's security policy: two-step verification required for password sign-ins (people without a
 * second factor set one up right after their password; a grace period in days lets them skip it for a
 * while, with a banner), whether a completed second step may trust its browser for 30 days, the longest a
 * session may last, and how long an unused session stays signed in.
 * Existing sessions follow a change at their next request.
 */
export function SecurityPolicySection(context: AdminContext) {
  const { t } = useTranslation('admin');
  const { domain } = context;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [requireTwoStep, setRequireTwoStep] = useState(false);
  const [trustBrowsers, setTrustBrowsers] = useState(true);
  const [grace, setGrace] = useState('0');
  const [lifetime, setLifetime] = useState('');
  const [idle, setIdle] = useState('');
  const [saved, setSaved] = useState(false);
  const id = useId();

  const show = useCallback((policy: SecurityPolicy) => {
    setState({ status: 'ready', policy });
    setRequireTwoStep(policy.require_two_step);
    setTrustBrowsers(policy.trust_browsers);
    setGrace(String(policy.two_step_grace_days));
    setLifetime(policy.session_max_ms === null ? '' : String(policy.session_max_ms));
    setIdle(policy.session_idle_ms === null ? '' : String(policy.session_idle_ms));
  }, []);
  const load = useCallback(() => {
    setState({ status: 'loading' });
    getSecurityPolicy(domain).then(show, (error: unknown) => setState({ status: 'error', error }));
  }, [domain, show]);
  useEffect(load, [load]);

  const graceDays = Number(grace);
  const graceValid = /^\d+$/.test(grace.trim()) && graceDays >= 0 && graceDays <= TWO_STEP_GRACE_MAX_DAYS;
  const submit = useFormSubmit<'grace'>({
    movesOn: false,
    validate: () =>
      requireTwoStep && !graceValid
        ? { fields: { grace: t('policy.graceInvalid', { max: TWO_STEP_GRACE_MAX_DAYS }) } }
        : undefined,
    send: async () => {
      setSaved(false);
      const policy = {
        require_two_step: requireTwoStep,
        two_step_grace_days: requireTwoStep ? graceDays : 0,
        session_max_ms: lifetime ? Number(lifetime) : null,
        session_idle_ms: idle ? Number(idle) : null,
        trust_browsers: trustBrowsers,
      };
      try {
        show(await context.withProof(() => saveSecurityPolicy(domain, policy)));
        setSaved(true);
        context.announce(t('policy.saved'));
      } catch (failure) {
        if (!(failure instanceof ProofCancelled)) throw failure;
        context.announce(t('proofCancelled'));
      }
    },
  });

  const policy = state.status === 'ready' ? state.policy : null;
  const options = (offered: number[], current: number | null) =>
    (current !== null && !offered.includes(current) ? [...offered, current].sort((a, b) => a - b) : offered).map(
      (ms) => (
        <option key={ms} value={String(ms)}>
          {duration(ms, t)}
        </option>
      ),
    );
  const edited = () => setSaved(false);

  return (
    <section className="card stack admin__section" aria-labelledby="policy-title">
      <div>
        <h2 id="policy-title">{t('policy.title')}</h2>
        <p className="muted admin__intro">{t('policy.intro')}</p>
      </div>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={load} />}
      {policy !== null && (
        <form className="stack" onSubmit={submit.onSubmit} noValidate>
          <div className="stack admin__part">
            <h3>{t('policy.twoStepTitle')}</h3>
            <Checkbox
              checked={requireTwoStep}
              onChange={(checked) => {
                setRequireTwoStep(checked);
                edited();
              }}
            >
              {t('policy.requireTwoStep')}
            </Checkbox>
            <p className="muted admin__hint">{t('policy.requireTwoStepText')}</p>
            {requireTwoStep ? (
              <TextField
                label={t('policy.grace')}
                name="grace"
                inputMode="numeric"
                value={grace}
                error={submit.fieldErrors.grace}
                hint={t('policy.graceHint', { max: TWO_STEP_GRACE_MAX_DAYS })}
                className="admin__narrow"
                onChange={(e) => {
                  setGrace(e.target.value.replace(/[^\d]/g, '').slice(0, 2));
                  submit.clearFieldError('grace');
                  edited();
                }}
              />
            ) : null}
            {policy.require_two_step && policy.two_step_grace_until ? (
              <p className="admin__hint">
                {t('policy.graceUntil', { when: formatWhen(policy.two_step_grace_until, context.languageTag) })}
              </p>
            ) : null}
            <Checkbox
              checked={trustBrowsers}
              onChange={(checked) => {
                setTrustBrowsers(checked);
                edited();
              }}
            >
              {t('policy.trustBrowsers')}
            </Checkbox>
            <p className="muted admin__hint">{t('policy.trustBrowsersText')}</p>
          </div>
          <div className="stack admin__part">
            <h3>{t('policy.sessionsTitle')}</h3>
            <div className="field">
              <label className="field__label" htmlFor={`${id}-lifetime`}>
                {t('policy.lifetime')}
              </label>
              <select
                id={`${id}-lifetime`}
                className="admin__select"
                value={lifetime}
                aria-describedby={`${id}-lifetime-hint`}
                onChange={(e) => {
                  setLifetime(e.target.value);
                  edited();
                }}
              >
                <option value="">{t('policy.default')}</option>
                {options(LIFETIMES, policy.session_max_ms)}
              </select>
              <span id={`${id}-lifetime-hint`} className="field__hint">
                {t('policy.lifetimeHint')}
              </span>
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${id}-idle`}>
                {t('policy.idle')}
              </label>
              <select
                id={`${id}-idle`}
                className="admin__select"
                value={idle}
                aria-describedby={`${id}-idle-hint`}
                onChange={(e) => {
                  setIdle(e.target.value);
                  edited();
                }}
              >
                <option value="">{t('policy.default')}</option>
                {options(IDLE, policy.session_idle_ms)}
              </select>
              <span id={`${id}-idle-hint`} className="field__hint">
                {t('policy.idleHint')}
              </span>
            </div>
          </div>
          {submit.error !== null ? <Alert>{submit.error}</Alert> : null}
          {saved ? <Alert variant="success">{t('policy.saved')}</Alert> : null}
          <div>
            <Button type="submit" loading={submit.busy}>
              {t('save')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
