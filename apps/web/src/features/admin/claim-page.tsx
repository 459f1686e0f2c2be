import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import type { AdminClaimResponse } from '@suite/contract';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PageLoading } from '../../components/page-loading';
import { ApiError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n-react';
import { useNavigate } from '../../lib/navigation';
import { PATHS, userPath } from '../../lib/paths';
import { clearSession, currentToken } from '../../lib/session';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useErrorMessage } from '../../lib/use-error-message';
import { isWelcomeSession } from '../../lib/welcome-session';
import { getClaim, verifyClaim } from './api/claim';
import { CONSOLE_PATH } from './lib/sections';
import { WithDomain } from '../../components/address';
import { HomeHeader } from '../../components/home-header';
import './admin.css';
import './claim.css';

type State =
  { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; claim: AdminClaimResponse };

/** What the last "Check now" found: nothing yet, the proof accepted, or the server's refusal. */
type Check = { status: 'idle' } | { status: 'proven' } | { status: 'failed'; error: unknown };

/** The DNS hosts whose forms people meet most, each with where the record goes (texts claim.hosts.<id>). */
const HOSTS = ['cloudflare', 'route53', 'google', 'godaddy', 'other'] as const;

function CopyValue({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('admin');
  const { status, copy } = useCopyToClipboard(4000);
  const id = useId();
  return (
    <div className="claim__row">
      <dt id={`${id}-label`}>{label}</dt>
      <dd>
        <code className="claim__value" id={`${id}-value`}>
          {value}
        </code>
        <Button
          variant="secondary"
          className="btn--small"
          aria-describedby={`${id}-label`}
          onClick={() =>
            void copy(value, () => {
              const range = document.createRange();
              const node = document.getElementById(`${id}-value`);
              if (!node) return;
              range.selectNodeContents(node);
              window.getSelection()?.removeAllRanges();
              window.getSelection()?.addRange(range);
            })
          }
        >
          {status === 'copied' ? t('claim.copied') : t('claim.copy')}
        </Button>
        {status === 'manual' ? <span className="muted claim__manual">{t('claim.copyManual')}</span> : null}
      </dd>
    </div>
  );
}

/**
 * `/app/admin/prove-domain`: a signed-in person of a company domain becomes one of its administrators by
 * publishing a TXT record. The page shows the record (its name, type and value, each copyable, and where
 * common DNS hosts want it), and "Check now" asks the server to look it up: found and matching makes the
 * person an administrator; missing and mismatched say what to do. A personal (free-mail) address is told
 * that only company domains can be proven.
 */
export default function ClaimPage() {
  const { t } = useTranslation('admin');
  const message = useErrorMessage();
  const navigate = useNavigate();
  useDocumentTitle(t('claim.title'));
  const welcome = isWelcomeSession();
  const signedIn = Boolean(currentToken()) && !welcome;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [check, setCheck] = useState<Check>({ status: 'idle' });
  const [busy, setBusy] = useState(false);

  const toLogin = useCallback(() => {
    clearSession();
    navigate(userPath('login'), { replace: true });
  }, [navigate]);

  useEffect(() => {
    if (!signedIn) {
      navigate(userPath(welcome ? 'welcome' : 'login'), { replace: true });
      return;
    }
    getClaim().then(
      (claim) => setState({ status: 'ready', claim }),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) toLogin();
        else setState({ status: 'error', error });
      },
    );
  }, [signedIn, welcome, navigate, toLogin]);

  const checkNow = async () => {
    if (busy) return;
    setBusy(true);
    setCheck({ status: 'idle' });
    try {
      await verifyClaim();
      setCheck({ status: 'proven' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) toLogin();
      else setCheck({ status: 'failed', error });
    } finally {
      setBusy(false);
    }
  };

  const code = check.status === 'failed' && check.error instanceof ApiError ? check.error.code : null;
  const claim = state.status === 'ready' ? state.claim : null;

  // Inside the home's frame, as its Administration section: proving the domain is how this person's
  // administration begins, so the sections stay in reach instead of a sign-in style page.
  return (
    <div className="admin">
      <HomeHeader
        current="admin"
        adminPath={claim?.admin || check.status === 'proven' ? CONSOLE_PATH : PATHS.adminClaim}
      />
      <main id="main" className="admin__main">
        <div className="card stack claim">
          <h1>{t('claim.title')}</h1>
          {state.status === 'loading' && <PageLoading />}
          {state.status === 'error' && (
            <>
              <Alert>{message(state.error)}</Alert>
              <Link className="btn btn--secondary btn--block" to={PATHS.home}>
                {t('backHome')}
              </Link>
            </>
          )}
          {claim !== null && (
            <>
              <p>
                <WithDomain text={t('claim.intro', { domain: claim.domain })} domain={claim.domain} />
              </p>
              {claim.admin && check.status !== 'proven' ? (
                <Alert variant="info">
                  <WithDomain text={t('claim.already', { domain: claim.domain })} domain={claim.domain} />
                </Alert>
              ) : null}
              <section className="stack" aria-labelledby="claim-record">
                <h2 id="claim-record" className="claim__heading">
                  {t('claim.recordTitle')}
                </h2>
                <dl className="claim__record">
                  <CopyValue label={t('claim.name')} value={claim.record_name} />
                  <div className="claim__row">
                    <dt>{t('claim.type')}</dt>
                    <dd>
                      <code className="claim__value">{claim.record_type}</code>
                    </dd>
                  </div>
                  <CopyValue label={t('claim.value')} value={claim.record_value} />
                </dl>
                <p className="muted claim__hint">
                  <WithDomain text={t('claim.nameHint', { domain: claim.domain })} domain={claim.domain} />
                </p>
              </section>
              <details className="claim__howto">
                <summary>{t('claim.howtoTitle')}</summary>
                <ul className="claim__hosts">
                  {HOSTS.map((host) => (
                    <li key={host}>
                      <strong>{t(`claim.hosts.${host}.name`)}</strong> {t(`claim.hosts.${host}.text`)}
                    </li>
                  ))}
                </ul>
              </details>
              {check.status === 'proven' ? (
                <Alert variant="success">
                  <WithDomain text={t('claim.proven', { domain: claim.domain })} domain={claim.domain} />
                </Alert>
              ) : null}
              {check.status === 'failed' ? (
                <Alert variant={code === 'ERR_CLAIM_RECORD_MISSING' ? 'warning' : 'error'}>
                  {message(check.error)}
                  {code === 'ERR_CLAIM_RECORD_MISSING' ? ` ${t('claim.missingHint')}` : null}
                  {code === 'ERR_CLAIM_RECORD_MISMATCH' ? ` ${t('claim.mismatchHint')}` : null}
                </Alert>
              ) : null}
              {check.status === 'proven' || claim.admin ? (
                <Link className="btn btn--primary btn--block" to={CONSOLE_PATH}>
                  {t('open')}
                </Link>
              ) : null}
              {check.status !== 'proven' ? (
                <Button
                  variant={claim.admin ? 'secondary' : 'primary'}
                  className="btn--block"
                  loading={busy}
                  onClick={() => void checkNow()}
                >
                  {t('claim.check')}
                </Button>
              ) : null}
              <Link to={PATHS.home}>{t('backHome')}</Link>
            </>
          )}
        </div>
      </main>
    </div>
  );
}
