import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { Link, useLocation } from 'wouter';
import { LANGUAGE_TAGS, type Language, type SecurityState } from '@suite/contract/core';
import { HomeHeader } from '../../components/home-header';
import { LoadError } from '../../components/load-error';
import { PageLoading } from '../../components/page-loading';
import { useFreshProof } from '../../components/fresh-proof';
import { ApiError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n-react';
import { useNavigate } from '../../lib/navigation';
import { PageNotFound } from '../../lib/page-not-found';
import { userPath } from '../../lib/paths';
import { clearSession, currentToken } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { isWelcomeSession } from '../../lib/welcome-session';
import { getAdminMe } from './api/admin-me';
import { reauthMethods } from './api/reauth-methods';
import type { AdminContext } from './lib/admin-context';
import { CONSOLE_PATH, SECTIONS, sectionOf, sectionPath, type SectionId } from './lib/sections';
import { WithDomain } from '../../components/address';
import './admin.css';

const named = <K extends string>(load: () => Promise<Record<K, ComponentType<AdminContext>>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));

/** Each section's code loads when it is first opened. */
const SECTION_SCREENS: Record<SectionId, ComponentType<AdminContext>> = {
  people: named(() => import('./components/people-section'), 'PeopleSection'),
  requests: named(() => import('./components/requests-section'), 'RequestsSection'),
  signupRules: named(() => import('./components/signup-rules-section'), 'SignupRulesSection'),
  securityPolicy: named(() => import('./components/security-policy-section'), 'SecurityPolicySection'),
  audit: named(() => import('./components/audit-section'), 'AuditSection'),
  sso: named(() => import('./components/sso-section'), 'SsoSection'),
  admins: named(() => import('./components/admins-section'), 'AdminsSection'),
};

type State =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'notFound' }
  | { status: 'ready'; domains: string[] };

const sessionEnded = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * `/app/admin[/section]`: the domain administrator's console. It exists only for someone who administers
 * a domain: GET /admin/me answers 404 to everyone else, and they get the not-found page, as for any
 * unknown address. People, requests, sign-up rules, security policy and the audit trail are sections with
 * addresses of their own; an action the server refuses for want of a recent proof opens the fresh-proof
 * dialog and is made again once the proof is given.
 */
export default function AdminPage() {
  const { t, i18n } = useTranslation('admin');
  const navigate = useNavigate();
  const [pathname] = useLocation();
  const section = sectionOf(pathname);
  const welcome = isWelcomeSession();
  const signedIn = Boolean(currentToken()) && !welcome;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [picked, setPicked] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [reauth, setReauth] = useState<SecurityState['reauth']>();
  const language = i18n.language as Language;
  const title = section ? t(`nav.${section}`) : t('title');
  useDocumentTitle(`${title} · ${t('title')}`);

  const toLogin = useCallback(() => {
    clearSession();
    navigate(userPath('login'), { replace: true });
  }, [navigate]);

  const load = useCallback(() => {
    setState({ status: 'loading' });
    getAdminMe().then(
      (me) => setState({ status: 'ready', domains: me.domains.map((d) => d.domain) }),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) setState({ status: 'notFound' });
        else if (sessionEnded(error)) toLogin();
        else setState({ status: 'error', error });
      },
    );
  }, [toLogin]);

  useEffect(() => {
    if (!signedIn) navigate(userPath(welcome ? 'welcome' : 'login'), { replace: true });
    else load();
  }, [signedIn, welcome, navigate, load]);

  // How this session proves itself again (password, app code, passkey, provider): asked once, in the background.
  useEffect(() => {
    if (state.status === 'ready') reauthMethods().then(setReauth, () => undefined);
  }, [state.status]);
  const proof = useFreshProof(reauth);

  const domain = state.status === 'ready' ? (picked ?? state.domains[0] ?? '') : '';
  const context = useMemo<AdminContext>(
    () => ({
      domain,
      withProof: proof.withProof,
      announce: setAnnouncement,
      language,
      languageTag: LANGUAGE_TAGS[language] ?? language,
    }),
    [domain, proof.withProof, language],
  );

  // The console does not exist for this person, or not at this address: the not-found page (router.tsx).
  if (state.status === 'notFound' || (state.status === 'ready' && (!section || state.domains.length === 0))) {
    throw new PageNotFound();
  }
  if (!signedIn) return <PageLoading />;
  const Section = section ? SECTION_SCREENS[section] : null;

  return (
    <div className="admin">
      {/* The home's header: the console is its Administration section. */}
      <HomeHeader current="admin" adminPath={CONSOLE_PATH} />
      <main id="main" className="admin__main">
        {/* Like every section of the home: the page's heading for assistive tech, then a card that opens
            with the section's heading, a one-line lead (the domain) and what to do first (the tabs). */}
        <h1 className="visually-hidden">{t('title')}</h1>
        <section className="card stack admin__head" aria-labelledby="admin-title">
          <div>
            <h2 id="admin-title">{t('title')}</h2>
            <p className="muted admin__intro">
              {domain ? <WithDomain text={t('domainOf', { domain })} domain={domain} /> : '\u00a0'}
            </p>
          </div>
          {state.status === 'ready' && state.domains.length > 1 ? (
            <div className="field admin__picker">
              <label className="field__label" htmlFor="admin-domain">
                {t('domain')}
              </label>
              <select
                id="admin-domain"
                className="admin__select"
                value={domain}
                onChange={(e) => setPicked(e.target.value)}
              >
                {state.domains.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <nav className="admin__nav" aria-label={t('nav.label')}>
            <ul>
              {SECTIONS.map((s) => (
                <li key={s.id}>
                  <Link
                    to={sectionPath(s.id)}
                    className="admin__tab"
                    aria-current={s.id === section ? 'page' : undefined}
                    onClick={() => setAnnouncement('')}
                  >
                    {t(`nav.${s.id}`)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </section>
        {state.status === 'loading' && <PageLoading />}
        {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={load} />}
        {state.status === 'ready' && Section ? (
          <Suspense fallback={<PageLoading />}>
            {/* A new domain is a new section: nothing of the other domain's lists stays. */}
            <Section key={`${section}:${domain}`} {...context} />
          </Suspense>
        ) : null}
        <p role="status" aria-live="polite" className="admin__status">
          {announcement}
        </p>
      </main>
      {/* The dialog's texts (the Security panel's) load when it first opens. */}
      <Suspense fallback={null}>{proof.dialog}</Suspense>
    </div>
  );
}
