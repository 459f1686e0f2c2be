import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import type { Admin } from '@suite/contract';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { EmailField } from '../../../components/email-field';
import { ProofCancelled } from '../../../components/fresh-proof';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { useTranslation } from '../../../lib/i18n-react';
import { useNavigate } from '../../../lib/navigation';
import { PATHS } from '../../../lib/paths';
import { currentUser } from '../../../lib/session';
import { useErrorMessage } from '../../../lib/use-error-message';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { addAdmin, getAdmins, removeAdmin } from '../api/admins';
import type { AdminContext } from '../lib/admin-context';
import { formatWhen } from '../lib/format';
import { WithDomain } from '../../../components/address';
import '../../../components/destructive.css';

type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; admins: Admin[] };

/**
 * Who administers the domain: each administrator with how they became one (the operator, another
 * administrator, a DNS record) and, for a DNS claim whose record has gone, the day it ends. An
 * administrator adds a registered person of the domain by address and removes others or themself; the
 * server refuses the last one leaving and its message is shown as it is.
 */
export function AdminsSection(context: AdminContext) {
  const { t } = useTranslation('admin');
  const { domain } = context;
  const { confirm } = useDialog();
  const message = useErrorMessage();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [email, setEmail] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [added, setAdded] = useState<string | null>(null);
  const id = useId();
  const me = currentUser()?.email?.toLowerCase() ?? '';

  const load = useCallback(() => {
    setState({ status: 'loading' });
    getAdmins(domain).then(
      ({ admins }) => setState({ status: 'ready', admins }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, [domain]);
  useEffect(load, [load]);

  const submit = useFormSubmit<'email'>({
    movesOn: false,
    validate: () => (email.trim() ? undefined : { fields: { email: t('admins.emailEmpty') } }),
    send: async () => {
      setAdded(null);
      setRemoveError(null);
      const address = email.trim();
      try {
        const { admins } = await context.withProof(() => addAdmin(domain, address));
        setState({ status: 'ready', admins });
        setEmail('');
        setAdded(address);
        context.announce(t('admins.added', { email: address }));
      } catch (failure) {
        if (!(failure instanceof ProofCancelled)) throw failure;
        context.announce(t('proofCancelled'));
      }
    },
  });

  const remove = async (admin: Admin) => {
    if (removing) return;
    setRemoveError(null);
    setAdded(null);
    const self = admin.email.toLowerCase() === me;
    const who = admin.name || admin.email;
    const sure = await confirm({
      title: self ? t('admins.confirmLeave.title', { domain }) : t('admins.confirmRemove.title', { name: who }),
      text: self ? t('admins.confirmLeave.text', { domain }) : t('admins.confirmRemove.text', { name: who, domain }),
      primaryLabel: self ? t('admins.leave') : t('admins.remove'),
      secondaryLabel: t('cancel'),
      variant: 'danger',
    });
    if (!sure) return;
    setRemoving(admin.user_id);
    try {
      const { admins } = await context.withProof(() => removeAdmin(domain, admin.user_id));
      if (self) {
        // No longer an administrator: the console is not theirs any more.
        navigate(PATHS.home, { replace: true });
        return;
      }
      setState({ status: 'ready', admins });
      context.announce(t('admins.removed', { name: who }));
    } catch (failure) {
      if (failure instanceof ProofCancelled) context.announce(t('proofCancelled'));
      else setRemoveError(failure);
    } finally {
      setRemoving(null);
    }
  };

  return (
    <section className="card stack admin__section" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`}>{t('admins.title')}</h2>
        <p className="muted admin__intro">
          <WithDomain text={t('admins.intro', { domain })} domain={domain} />
        </p>
      </div>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={load} />}
      {state.status === 'ready' && (
        <>
          <ul className="admin__list" aria-labelledby={`${id}-title`}>
            {state.admins.map((admin) => {
              const self = admin.email.toLowerCase() === me;
              const who = admin.name || admin.email;
              return (
                <li key={admin.user_id} className="admin__item person" aria-label={who}>
                  <div className="person__who">
                    <h3 className="person__name">{who}</h3>
                    {admin.name ? <span className="person__email">{admin.email}</span> : null}
                    <div className="person__badges">
                      <span className="admin__badge">{t(`admins.via.${admin.via}`)}</span>
                      {self ? <span className="admin__badge admin__badge--active">{t('admins.you')}</span> : null}
                    </div>
                  </div>
                  <dl className="person__facts">
                    <div>
                      <dt>{t('admins.since')}</dt>
                      <dd>{formatWhen(admin.created_at, context.languageTag)}</dd>
                    </div>
                  </dl>
                  {admin.drops_at ? (
                    <Alert variant="warning">
                      {t('admins.recordGone', { when: formatWhen(admin.drops_at, context.languageTag) })}
                    </Alert>
                  ) : null}
                  <div className="person__actions">
                    <Button
                      variant="quiet-danger"
                      className="btn--small"
                      loading={removing === admin.user_id}
                      disabled={removing !== null && removing !== admin.user_id}
                      aria-label={self ? t('admins.leave') : t('admins.removeWho', { name: who })}
                      onClick={() => void remove(admin)}
                    >
                      {self ? t('admins.leave') : t('admins.remove')}
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
          {removeError !== null ? <Alert>{message(removeError)}</Alert> : null}
          <form className="stack admin__invite" onSubmit={submit.onSubmit} noValidate aria-labelledby={`${id}-add`}>
            <h3 id={`${id}-add`}>{t('admins.addTitle')}</h3>
            <EmailField
              label={t('admins.email')}
              placeholder={t('admins.emailPlaceholder', { domain })}
              invalidMessage={t('admins.emailInvalid')}
              hint={<WithDomain text={t('admins.emailHint', { domain })} domain={domain} />}
              name="email"
              autoComplete="off"
              value={email}
              error={submit.fieldErrors.email ?? null}
              onChange={(e) => {
                setEmail(e.target.value);
                setAdded(null);
                submit.clearFieldError('email');
              }}
            />
            {submit.error !== null ? <Alert>{submit.error}</Alert> : null}
            {added ? <Alert variant="success">{t('admins.added', { email: added })}</Alert> : null}
            <div>
              <Button type="submit" loading={submit.busy}>
                {t('admins.add')}
              </Button>
            </div>
          </form>
          <p className="muted admin__hint">
            {t('admins.claimHint')} <Link to={PATHS.adminClaim}>{t('admins.claimLink')}</Link>
          </p>
        </>
      )}
    </section>
  );
}
