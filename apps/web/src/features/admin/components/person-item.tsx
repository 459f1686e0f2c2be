import { useId, useState } from 'react';
import type { Person } from '@suite/contract';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { ProofCancelled } from '../../../components/fresh-proof';
import { useTranslation } from '../../../lib/i18n-react';
import { currentUser } from '../../../lib/session';
import { useErrorMessage } from '../../../lib/use-error-message';
import { runPersonAction, type PersonAction } from '../api/person-action';
import type { AdminContext } from '../lib/admin-context';
import { formatWhen } from '../lib/format';
import '../../../components/destructive.css';

/** Actions that end or take something away: they ask first, and look it. */
const DESTRUCTIVE = new Set<PersonAction>(['deactivate', 'endSessions', 'resetTwoStep', 'removePasskeys']);

/**
 * What a person's state and methods allow, in the order shown (the destructive one that ends everything last).
 * On the administrator's own row there is no "Deactivate": locking oneself out of the console is never what
 * was meant, and a red button there invited the mistake.
 */
function actionsFor(person: Person, self: boolean): PersonAction[] {
  switch (person.status) {
    case 'active':
      return [
        ...(person.sessions > 0 ? (['endSessions'] as const) : []),
        ...(person.methods.includes('two_step') ? (['resetTwoStep'] as const) : []),
        ...(person.methods.includes('passkey') ? (['removePasskeys'] as const) : []),
        ...(self ? [] : (['deactivate'] as const)),
      ];
    case 'deactivated':
      return ['reactivate'];
    case 'invited':
      return ['resendInvitation'];
    default:
      return [];
  }
}

const personName = (person: Person) => [person.first_name, person.last_name].filter(Boolean).join(' ');

/** One person of the People list: who, state, methods, sessions, last sign-in, and the actions. */
export function PersonItem({
  person,
  context,
  onChanged,
}: {
  person: Person;
  context: AdminContext;
  onChanged: (person: Person) => void;
}) {
  const { t } = useTranslation('admin');
  const { confirm } = useDialog();
  const message = useErrorMessage();
  const [busy, setBusy] = useState<PersonAction | null>(null);
  const [error, setError] = useState<unknown>(null);
  const nameId = useId();
  const name = personName(person);
  const who = name || person.email;
  const self = person.email.toLowerCase() === (currentUser()?.email ?? '').toLowerCase();
  const actions = actionsFor(person, self);

  const run = async (action: PersonAction) => {
    if (busy) return;
    setError(null);
    if (DESTRUCTIVE.has(action)) {
      const sure = await confirm({
        title: t(`people.confirm.${action}.title`, { name: who }),
        text: t(`people.confirm.${action}.text`, { name: who }),
        primaryLabel: t(`people.actions.${action}`),
        secondaryLabel: t('cancel'),
        variant: 'danger',
      });
      if (!sure) return;
    }
    setBusy(action);
    try {
      const { person: changed } = await context.withProof(() => runPersonAction(person.id, action, context.language));
      onChanged(changed);
      context.announce(t(`people.done.${action}`, { name: who }));
    } catch (failure) {
      if (failure instanceof ProofCancelled) context.announce(t('proofCancelled'));
      else setError(failure);
    } finally {
      setBusy(null);
    }
  };

  return (
    <li className="admin__item person" aria-labelledby={nameId}>
      <div className="person__who">
        <h3 id={nameId} className="person__name">
          {who}
        </h3>
        {name ? <span className="person__email">{person.email}</span> : null}
        <div className="person__badges">
          <span className={`admin__badge admin__badge--${person.status}`}>{t(`people.status.${person.status}`)}</span>
          {person.admin ? <span className="admin__badge">{t('people.admin')}</span> : null}
        </div>
      </div>
      <dl className="person__facts">
        <div>
          <dt>{t('people.methods')}</dt>
          <dd>
            {person.methods.length > 0
              ? person.methods.map((m) => t(`people.method.${m}`)).join(', ')
              : t('people.noMethod')}
          </dd>
        </div>
        <div>
          <dt>{t('people.sessionsLabel')}</dt>
          <dd>{t('people.sessions', { count: person.sessions })}</dd>
        </div>
        <div>
          <dt>{t('people.lastSignIn')}</dt>
          <dd>
            {person.last_sign_in_at ? formatWhen(person.last_sign_in_at, context.languageTag) : t('people.never')}
          </dd>
        </div>
      </dl>
      {actions.length > 0 ? (
        <div className="person__actions" role="group" aria-label={t('people.actionsOf', { name: who })}>
          {actions.map((action) => (
            <Button
              key={action}
              variant={DESTRUCTIVE.has(action) ? 'quiet-danger' : 'secondary'}
              className="btn--small"
              loading={busy === action}
              disabled={busy !== null && busy !== action}
              onClick={() => void run(action)}
            >
              {t(`people.actions.${action}`)}
            </Button>
          ))}
        </div>
      ) : person.status === 'waiting' ? (
        <p className="muted admin__hint">{t('people.waitingHint')}</p>
      ) : null}
      {error !== null ? <Alert>{message(error)}</Alert> : null}
    </li>
  );
}
