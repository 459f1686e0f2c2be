import { Fragment, useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ADMIN_API } from '@suite/contract/core';
import type {
  AdminSsoCertificate,
  AdminSsoConnection,
  AdminSsoResponse,
  AdminSsoSetupRequest,
  SsoTestResult,
  SsoTestResultResponse,
  SsoTestStartResponse,
} from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';
import { useTranslation, type TFunction } from '../../../lib/i18n-react';
import { currentLanguage } from '../../../lib/i18n';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { PasswordField } from '../../../components/password-field';
import { TextField } from '../../../components/text-field';
import './sso-section.css';

/** GET /admin/domains/:domain/sso: the connection, its recent failures, our addresses (404: not an admin). */
function getSsoState(domain: string) {
  return apiRequest({
    method: 'GET',
    path: ADMIN_API.adminSso,
    params: { domain },
    auth: true,
    schema: lazySchema('AdminSsoResponseSchema'),
  });
}

function saveSetup(domain: string, body: AdminSsoSetupRequest) {
  return apiRequest<AdminSsoResponse>({
    method: 'PUT',
    path: ADMIN_API.adminSso,
    params: { domain },
    body,
    auth: true,
    schema: lazySchema('AdminSsoResponseSchema'),
  });
}

function startTest(domain: string) {
  return apiRequest<SsoTestStartResponse>({
    method: 'POST',
    path: ADMIN_API.adminSsoTest,
    params: { domain },
    auth: true,
    schema: lazySchema('SsoTestStartResponseSchema'),
  });
}

function testResult(domain: string) {
  return apiRequest<SsoTestResultResponse>({
    method: 'GET',
    path: ADMIN_API.adminSsoTest,
    params: { domain },
    auth: true,
    schema: lazySchema('SsoTestResultResponseSchema'),
  });
}

/** How often the console asks for the Test sign-in's result while its window is open, and for how long. */
const TEST_POLL_MS = 1500;
const TEST_WAIT_MS = 10 * 60_000;
/** The popup's landing page tells the console on this same-origin channel that the test is over. */
const SSO_TEST_CHANNEL = 'suite-sso-test';
const TEST_DONE_HASH = '#sso-test-done';

/**
 * In the Test sign-in's popup, back from the provider: tell the console, then close. Should the browser
 * refuse to close it, the page stays and shows the section (its result is on the console's page).
 */
function useTestDoneSignal() {
  useEffect(() => {
    if (window.location.hash !== TEST_DONE_HASH) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    const channel = new BroadcastChannel(SSO_TEST_CHANNEL);
    channel.postMessage('done');
    channel.close();
    window.close();
  }, []);
}

type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; sso: AdminSsoResponse };

const when = (iso: string, withTime = false) =>
  new Intl.DateTimeFormat(
    currentLanguage(),
    withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'long' },
  ).format(new Date(iso));

/** An address that wraps only after a "/" (never "…saml/m/etadata" inside a word); copying takes it whole. */
function BreakAtSlashes({ value }: { value: string }) {
  const parts = value.split(/(?<=\/)/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? <wbr /> : null}
    </Fragment>
  ));
}

/** One of our addresses, with Copy beside it (the IT team pastes it into the provider's settings). */
function Address({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('adminSso');
  const { status, copy } = useCopyToClipboard(2000);
  return (
    <div className="sso__address">
      <dt>{label}</dt>
      <dd>
        <code className="sso__value sso__url">
          <BreakAtSlashes value={value} />
        </code>
        <Button
          variant="secondary"
          className="btn--small"
          onClick={() => void copy(value)}
          aria-label={t('copyNamed', { name: label })}
        >
          {status === 'copied' ? t('copied') : t('copy')}
        </Button>
      </dd>
    </div>
  );
}

function Certificate({ cert, t }: { cert: AdminSsoCertificate; t: TFunction }) {
  const state = cert.warning === 'expired' ? 'expired' : cert.warning === 'expiring' ? 'expiring' : 'valid';
  return (
    <li className={`sso__cert sso__cert--${state}`}>
      <span className="sso__badge">{t(`cert.${state}`)}</span>{' '}
      {cert.expires_at ? t('cert.until', { date: when(cert.expires_at) }) : t('cert.unreadable')}
      <br />
      <code className="sso__value sso__fingerprint">SHA-256 {cert.fingerprint}</code>
    </li>
  );
}

function ConnectionFacts({ connection, t }: { connection: AdminSsoConnection; t: TFunction }) {
  const rows: [string, string][] =
    connection.protocol === 'oidc'
      ? [
          [t('fact.protocol'), 'OpenID Connect'],
          [t('fact.issuer'), connection.issuer ?? ''],
          [t('fact.clientId'), connection.client_id ?? ''],
          [t('fact.domains'), connection.domains.join(', ')],
        ]
      : [
          [t('fact.protocol'), 'SAML 2.0'],
          [t('fact.entityId'), connection.entity_id ?? ''],
          [t('fact.ssoUrl'), connection.sso_url ?? ''],
          [t('fact.domains'), connection.domains.join(', ')],
          [
            t('fact.metadata'),
            connection.metadata_url
              ? t('fact.metadataUrl', {
                  url: connection.metadata_url,
                  date: connection.metadata_read_at ? when(connection.metadata_read_at, true) : t('fact.never'),
                })
              : t('fact.metadataFile'),
          ],
          [t('fact.sha1'), t(`sha1.${connection.sha1 ?? 'refuse'}`)],
          [t('fact.logout'), connection.logout_url ?? t('fact.noLogout')],
          [t('fact.idpInitiated'), connection.idp_initiated ? t('fact.allowed') : t('fact.off')],
        ];
  return (
    <dl className="sso__facts">
      {rows.map(([label, value]) => (
        <div key={label} className="sso__fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function TestVerdicts({ result, t }: { result: SsoTestResult; t: TFunction }) {
  return (
    <div className="stack" data-testid="sso-test-result">
      <Alert variant={result.passed ? 'success' : 'error'}>{result.passed ? t('test.passed') : t('test.failed')}</Alert>
      <ul className="sso__checks">
        {result.checks.map((c) => (
          <li key={c.check} className={c.ok ? 'sso__check sso__check--ok' : 'sso__check sso__check--bad'}>
            <strong>
              {c.ok ? t('test.ok') : t('test.bad')} · {t(`test.check.${c.check}`)}
            </strong>
            {c.detail ? (
              <span className="sso__detail">
                {' '}
                {c.check === 'account' && c.ok
                  ? t(`test.account.${c.detail === 'new' ? 'new' : 'existing'}`)
                  : c.detail}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      <dl className="sso__facts">
        <div className="sso__fact">
          <dt>{t('test.email')}</dt>
          <dd>{result.email ?? t('test.noEmail')}</dd>
        </div>
        <div className="sso__fact">
          <dt>{t('test.received')}</dt>
          <dd className="sso__value">{result.received || t('test.nothing')}</dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * Setting the connection up (a domain proven by DNS): the provider's OIDC issuer and client, or its SAML
 * metadata (URL, or the file's text). It is saved switched off; the Test sign-in switches it on.
 */
function SetupForm({
  domain,
  withProof,
  onSaved,
}: {
  domain: string;
  withProof: <T>(action: () => Promise<T>) => Promise<T>;
  onSaved: (sso: AdminSsoResponse) => void;
}) {
  const { t } = useTranslation('adminSso');
  const id = useId();
  const [protocol, setProtocol] = useState<'oidc' | 'saml'>('saml');
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [metadataUrl, setMetadataUrl] = useState('');
  const [metadataXml, setMetadataXml] = useState('');
  const submit = useFormSubmit({
    movesOn: false,
    send: async () => {
      const body: AdminSsoSetupRequest =
        protocol === 'oidc'
          ? { protocol, issuer: issuer.trim(), client_id: clientId.trim(), client_secret: secret }
          : metadataUrl.trim()
            ? { protocol, metadata_url: metadataUrl.trim() }
            : { protocol, metadata_xml: metadataXml };
      onSaved(await withProof(() => saveSetup(domain, body)));
      setSecret('');
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit.run(event.currentTarget);
  };
  return (
    <form className="stack sso__part" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('setup.title')}</h3>
      <p className="muted">{t('setup.intro')}</p>
      <fieldset className="sso__choice">
        <legend>{t('fact.protocol')}</legend>
        {(['saml', 'oidc'] as const).map((p) => (
          <label key={p} className="sso__radio">
            <input type="radio" name={`${id}-protocol`} checked={protocol === p} onChange={() => setProtocol(p)} />{' '}
            {p === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'}
          </label>
        ))}
      </fieldset>
      {protocol === 'oidc' ? (
        <>
          <TextField
            label={t('fact.issuer')}
            hint={t('setup.issuerHint')}
            type="url"
            value={issuer}
            onChange={(e) => setIssuer(e.target.value)}
          />
          <TextField label={t('fact.clientId')} value={clientId} onChange={(e) => setClientId(e.target.value)} />
          <PasswordField
            label={t('setup.secret')}
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        </>
      ) : (
        <>
          <TextField
            label={t('setup.metadataUrl')}
            hint={t('setup.metadataUrlHint')}
            type="url"
            value={metadataUrl}
            onChange={(e) => setMetadataUrl(e.target.value)}
          />
          <div className="field">
            <label className="field__label" htmlFor={`${id}-file`}>
              {t('setup.metadataFile')}
            </label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".xml,application/xml,text/xml"
              onChange={(e) => void e.target.files?.[0]?.text().then(setMetadataXml)}
            />
          </div>
        </>
      )}
      {submit.error !== null && <Alert>{submit.error}</Alert>}
      <div>
        <Button type="submit" loading={submit.busy}>
          {t('setup.save')}
        </Button>
      </div>
    </form>
  );
}

/**
 * Test sign-in: the real flow of the connection in a popup (opened at the click, so that it is not
 * blocked, then sent to the provider); the console asks for the result while the window is open and
 * closes it once the result is in. Nobody is signed in and no account is made.
 */
function TestSignIn({
  domain,
  withProof,
  onPassed,
}: {
  domain: string;
  withProof: <T>(action: () => Promise<T>) => Promise<T>;
  /** A passed test may have switched the connection on: the page reads its state again. */
  onPassed: () => void;
}) {
  const { t } = useTranslation('adminSso');
  const [result, setResult] = useState<SsoTestResult | null>(null);
  const [waiting, setWaiting] = useState(false);
  const stop = useRef<() => void>(() => undefined);
  useEffect(() => () => stop.current(), []);

  const submit = useFormSubmit({
    movesOn: false,
    send: async () => {
      setResult(null);
      const popup = window.open('', 'sso-test', 'popup,width=560,height=720');
      if (!popup) throw new Error(t('test.blocked'));
      let started: SsoTestStartResponse;
      try {
        started = await withProof(() => startTest(domain));
      } catch (error) {
        popup.close();
        throw error;
      }
      const since = Date.now();
      popup.location.href = started.url;
      setWaiting(true);
      // `popup.closed` says nothing here: our Cross-Origin-Opener-Policy cuts this page off from the
      // window once it visits the provider (it reads as closed). So the console asks until the result
      // is in, the window's landing page says it is done, or the person stops waiting.
      const done = new BroadcastChannel(SSO_TEST_CHANNEL);
      await new Promise<void>((resolve) => {
        const ask = () =>
          void testResult(domain).then(
            ({ result: got }) => {
              if (got && Date.parse(got.at) >= since - 1000) {
                setResult(got);
                finish();
                if (got.passed) onPassed();
              } else if (Date.now() - since > TEST_WAIT_MS) finish();
            },
            () => undefined,
          );
        const timer = window.setInterval(ask, TEST_POLL_MS);
        done.onmessage = ask;
        const finish = () => {
          window.clearInterval(timer);
          done.close();
          if (!popup.closed) popup.close();
          setWaiting(false);
          resolve();
        };
        stop.current = finish;
      });
    },
  });

  return (
    <div className="stack sso__part">
      <h3>{t('test.title')}</h3>
      <p className="muted">{t('test.intro')}</p>
      <div>
        <Button onClick={() => void submit.run(null)} loading={submit.busy}>
          {t('test.button')}
        </Button>
      </div>
      {waiting ? (
        <div className="sso__waiting">
          <p role="status">{t('test.waiting')}</p>
          <Button variant="secondary" onClick={() => stop.current()}>
            {t('test.stop')}
          </Button>
        </div>
      ) : null}
      {submit.error !== null && <Alert>{submit.error}</Alert>}
      {result ? <TestVerdicts result={result} t={t} /> : null}
    </div>
  );
}

/**
 * The console's single-sign-on page: the domain's connection (its provider, certificates and their ends,
 * SHA-1 standing, logout endpoint, IdP-initiated sign-in), the last failures with their reasons (what
 * the people were told, and why in the operator's words), and our addresses to paste into the provider.
 * The connection is set up by the operator (`npm run admin -- sso set`); the Test sign-in runs it for real.
 */
export function SsoSection({
  domain,
  withProof = (action) => action(),
}: {
  domain: string;
  /** The console's: asks for a fresh proof when the server wants one, then runs the action again. */
  withProof?: <T>(action: () => Promise<T>) => Promise<T>;
}) {
  const { t } = useTranslation('adminSso');
  const ssoErrorT = useTranslation('ssoError').t;
  const [state, setState] = useState<State>({ status: 'loading' });
  useTestDoneSignal();

  const load = useCallback(() => {
    setState({ status: 'loading' });
    getSsoState(domain).then(
      (sso) => setState({ status: 'ready', sso }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, [domain]);
  useEffect(load, [load]);
  // After a passed test: the state again, quietly (the test's verdicts stay on the page).
  const refresh = useCallback(() => {
    getSsoState(domain).then(
      (sso) => setState({ status: 'ready', sso }),
      () => undefined,
    );
  }, [domain]);

  return (
    <section className="card stack sso" aria-labelledby="sso-title">
      <div>
        <h2 id="sso-title">{t('title')}</h2>
        <p className="muted sso__intro">{t('intro')}</p>
      </div>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={load} />}
      {state.status === 'ready' && (
        <>
          <div className="stack sso__part">
            <h3>{t('connection')}</h3>
            {state.sso.connection ? (
              <>
                <p>
                  {state.sso.connection.awaiting_test ? (
                    <span className="sso__badge">{t('awaitingTest')}</span>
                  ) : (
                    <span className="sso__badge sso__badge--on">{t('on')}</span>
                  )}{' '}
                  {state.sso.sso_only ? t('ssoOnly') : t('passwordsToo')}
                </p>
                <ConnectionFacts connection={state.sso.connection} t={t} />
                {state.sso.connection.protocol === 'saml' && (
                  <>
                    <h4>{t('cert.title')}</h4>
                    <ul className="sso__certs">
                      {state.sso.connection.certificates.map((cert) => (
                        <Certificate key={cert.fingerprint} cert={cert} t={t} />
                      ))}
                    </ul>
                  </>
                )}
              </>
            ) : (
              <p data-testid="sso-none">{state.sso.proven ? t('noneSetUp') : t('none')}</p>
            )}
          </div>

          {state.sso.connection ? <TestSignIn domain={domain} withProof={withProof} onPassed={refresh} /> : null}
          {state.sso.proven ? (
            <SetupForm domain={domain} withProof={withProof} onSaved={(sso) => setState({ status: 'ready', sso })} />
          ) : (
            <p className="muted sso__part">{t('setup.proveFirst')}</p>
          )}

          <div className="stack sso__part">
            <h3>{t('failures.title')}</h3>
            {state.sso.failures.length === 0 ? (
              <p className="muted">{t('failures.none')}</p>
            ) : (
              <ul className="sso__failures" data-testid="sso-failures">
                {state.sso.failures.map((f, i) => (
                  <li key={`${f.at}-${i}`} className="sso__failure">
                    <p className="sso__failure-head">
                      <strong>{ssoErrorT(`reasons.${f.reason}.title`, { defaultValue: f.reason })}</strong>{' '}
                      <span className="muted">
                        {when(f.at, true)}
                        {f.email ? ` · ${f.email}` : ''}
                        {f.ip ? ` · ${f.ip}` : ''}
                      </span>
                    </p>
                    {f.detail ? <p className="sso__detail">{f.detail}</p> : null}
                  </li>
                ))}
              </ul>
            )}
          </div>

          <div className="stack sso__part">
            <h3>{t('ours.title')}</h3>
            <p className="muted">{t('ours.intro')}</p>
            <h4>{t('ours.saml')}</h4>
            <dl className="sso__addresses">
              <Address label={t('ours.entityId')} value={state.sso.ours.saml_entity_id} />
              <Address label={t('ours.acs')} value={state.sso.ours.saml_acs_url} />
              <Address label={t('ours.slo')} value={state.sso.ours.saml_slo_url} />
            </dl>
            <h4>{t('ours.oidc')}</h4>
            <dl className="sso__addresses">
              {state.sso.ours.oidc_redirect_uri ? (
                <Address label={t('ours.redirect')} value={state.sso.ours.oidc_redirect_uri} />
              ) : null}
              {state.sso.ours.oidc_backchannel_logout_uri ? (
                <Address label={t('ours.backchannel')} value={state.sso.ours.oidc_backchannel_logout_uri} />
              ) : null}
              <Address label={t('ours.postLogout')} value={state.sso.ours.oidc_post_logout_redirect_uri} />
            </dl>
            {!state.sso.ours.oidc_redirect_uri ? <p className="muted">{t('ours.redirectLater')}</p> : null}
            <h4>{t('ours.portal')}</h4>
            <dl className="sso__addresses">
              <Address label={t('ours.start')} value={state.sso.ours.start_url} />
            </dl>
          </div>
        </>
      )}
    </section>
  );
}
