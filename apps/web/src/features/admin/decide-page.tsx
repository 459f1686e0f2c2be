import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { AccessRequest } from '@suite/contract';
import { Address } from '../../components/address';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { useDialog } from '../../components/confirm-dialog';
import { PageLoading } from '../../components/page-loading';
import { LANGUAGE_TAGS, type Language } from '@suite/contract/core';
import { useTranslation } from '../../lib/i18n-react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useErrorMessage } from '../../lib/use-error-message';
import { useFormSubmit } from '../../lib/use-form-submit';
import { decideByLink, requestByLink } from './api/decide-link';
import { formatWhen } from './lib/format';
import { CONSOLE_PATH } from './lib/sections';
import './decide.css';
import '../../components/destructive.css';

/** The mail's token, from the address's fragment (never sent to a server). */
const tokenInAddress = (): string | null => new URLSearchParams(window.location.hash.slice(1)).get('token');

type State =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; request: AccessRequest; decided: boolean };

/**
 * `/app/admin/decide#token=…`: the link of the mail an administrator gets for an access request. It
 * shows who asks and why, then approves or refuses with the link's own signed, single-use token (no
 * sign-in needed); the person is mailed the outcome. A used or expired link says so and points to the console.
 */
export default function DecidePage() {
  const { t, i18n } = useTranslation('admin');
  const message = useErrorMessage();
  const { confirm } = useDialog();
  useDocumentTitle(t('decide.title'));
  const [token] = useState(tokenInAddress);
  const [state, setState] = useState<State>({ status: 'loading' });
  const languageTag = LANGUAGE_TAGS[i18n.language as Language] ?? i18n.language;

  useEffect(() => {
    // Read once: the token leaves the address (history, screenshots, a copied link).
    if (window.location.hash) {
      window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    }
    if (!token) {
      setState({ status: 'error', error: t('decide.noToken') });
      return;
    }
    requestByLink(token).then(
      ({ request }) => setState({ status: 'ready', request, decided: false }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, [token, t]);

  const submit = useFormSubmit({ movesOn: false });
  const decide = (decision: 'approve' | 'refuse') =>
    submit.run(null, async () => {
      if (!token || state.status !== 'ready') return;
      if (decision === 'refuse') {
        const sure = await confirm({
          title: t('requests.refuseTitle'),
          text: t('requests.refuseText', { email: state.request.email }),
          address: state.request.email,
          primaryLabel: t('requests.refuse'),
          secondaryLabel: t('cancel'),
          variant: 'danger',
        });
        if (!sure) return;
      }
      const { request } = await decideByLink(token, decision);
      setState({ status: 'ready', request, decided: true });
    });

  return (
    <div className="card simple-page stack">
      <h1>{t('decide.title')}</h1>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && (
        <>
          <Alert>{message(state.error)}</Alert>
          <Link className="btn btn--secondary btn--block" to={CONSOLE_PATH}>
            {t('decide.toConsole')}
          </Link>
        </>
      )}
      {state.status === 'ready' && (
        <>
          <dl className="decide__facts">
            <dt>{t('decide.who')}</dt>
            <dd>
              <Address email={state.request.email} />
            </dd>
            <dt>{t('decide.why')}</dt>
            <dd>{t(`requests.reason.${state.request.reason}`)}</dd>
            <dt>{t('decide.when')}</dt>
            <dd>{formatWhen(state.request.created_at, languageTag)}</dd>
            {state.request.message ? (
              <>
                <dt>{t('decide.message')}</dt>
                <dd>{state.request.message}</dd>
              </>
            ) : null}
          </dl>
          {state.request.status === 'pending' ? (
            <>
              {submit.error !== null ? <Alert>{submit.error}</Alert> : null}
              <div className="decide__actions">
                <Button variant="quiet-danger" onClick={() => void decide('refuse')} disabled={submit.busy}>
                  {t('requests.refuse')}
                </Button>
                <Button onClick={() => void decide('approve')} loading={submit.busy}>
                  {t('requests.approve')}
                </Button>
              </div>
            </>
          ) : (
            <Alert variant={state.request.status === 'approved' ? 'success' : 'info'}>
              {t(state.decided ? `decide.done.${state.request.status}` : `decide.already.${state.request.status}`, {
                email: state.request.email,
              })}
            </Alert>
          )}
          <Link to={CONSOLE_PATH}>{t('decide.toConsole')}</Link>
        </>
      )}
    </div>
  );
}
