import { useCallback, useId, useState } from 'react';
import type { AccessRequest } from '@suite/contract';
import { Address } from '../../../components/address';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { ProofCancelled } from '../../../components/fresh-proof';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { useTranslation } from '../../../lib/i18n-react';
import { useErrorMessage } from '../../../lib/use-error-message';
import { decideRequest, listPendingRequests } from '../api/requests';
import { usePaged } from '../hooks/use-paged';
import type { AdminContext } from '../lib/admin-context';
import { formatWhen } from '../lib/format';
import { MoreButton } from './more-button';
import '../../../components/destructive.css';

/** Access requests waiting for a decision: who, from which screen, their message; approve or refuse (the person is mailed). */
export function RequestsSection(context: AdminContext) {
  const { t } = useTranslation('admin');
  const { domain } = context;
  const fetchPage = useCallback(
    (cursor?: string) =>
      listPendingRequests(domain, cursor).then((page) => ({ items: page.requests, next: page.next_cursor })),
    [domain],
  );
  const { state, more, update, reload } = usePaged<AccessRequest>(fetchPage);
  return (
    <section className="card stack admin__section" aria-labelledby="requests-title">
      <div>
        <h2 id="requests-title">{t('requests.title')}</h2>
        <p className="muted admin__intro">{t('requests.intro')}</p>
      </div>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={reload} />}
      {state.status === 'ready' && (
        <>
          {state.items.length === 0 ? (
            <p className="admin__none">{t('requests.none')}</p>
          ) : (
            <ul className="admin__list" aria-labelledby="requests-title">
              {state.items.map((request) => (
                <RequestItem
                  key={request.id}
                  request={request}
                  context={context}
                  onDecided={() => update((r) => r.id === request.id, null)}
                />
              ))}
            </ul>
          )}
          <MoreButton state={state} onMore={more} label={t('requests.more')} />
        </>
      )}
    </section>
  );
}

function RequestItem({
  request,
  context,
  onDecided,
}: {
  request: AccessRequest;
  context: AdminContext;
  onDecided: () => void;
}) {
  const { t } = useTranslation('admin');
  const { confirm } = useDialog();
  const message = useErrorMessage();
  const [busy, setBusy] = useState<'approve' | 'refuse' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const titleId = useId();

  const decide = async (decision: 'approve' | 'refuse') => {
    if (busy) return;
    setError(null);
    if (decision === 'refuse') {
      const sure = await confirm({
        title: t('requests.refuseTitle'),
        text: t('requests.refuseText', { email: request.email }),
        address: request.email,
        primaryLabel: t('requests.refuse'),
        secondaryLabel: t('cancel'),
        variant: 'danger',
      });
      if (!sure) return;
    }
    setBusy(decision);
    try {
      await context.withProof(() => decideRequest(request.id, decision, context.language));
      onDecided();
      context.announce(t(decision === 'approve' ? 'requests.approved' : 'requests.refused', { email: request.email }));
    } catch (failure) {
      if (failure instanceof ProofCancelled) context.announce(t('proofCancelled'));
      else setError(failure);
      setBusy(null);
    }
  };

  return (
    <li className="admin__item request" aria-labelledby={titleId}>
      <div className="request__who">
        <h3 id={titleId} className="person__name">
          <Address email={request.email} />
        </h3>
        <span className="muted">
          {t(`requests.reason.${request.reason}`)} · {formatWhen(request.created_at, context.languageTag)}
        </span>
        {request.message ? <blockquote className="request__message">{request.message}</blockquote> : null}
      </div>
      <div className="person__actions">
        <Button
          className="btn--small"
          loading={busy === 'approve'}
          disabled={busy === 'refuse'}
          onClick={() => void decide('approve')}
          aria-label={t('requests.approveOf', { email: request.email })}
        >
          {t('requests.approve')}
        </Button>
        <Button
          variant="quiet-danger"
          className="btn--small"
          loading={busy === 'refuse'}
          disabled={busy === 'approve'}
          onClick={() => void decide('refuse')}
          aria-label={t('requests.refuseOf', { email: request.email })}
        >
          {t('requests.refuse')}
        </Button>
      </div>
      {error !== null ? <Alert>{message(error)}</Alert> : null}
    </li>
  );
}
