import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { HOME_SECTIONS, type HomeSection } from '@suite/contract/core';
import { useNavigate } from '../lib/navigation';
import { useTranslation } from '../lib/i18n-react';
import { useDocumentTitle } from '../lib/use-document-title';
import { actingProfile, clearSession, currentToken, currentUser } from '../lib/session';
import { ApiError } from '../lib/api-client';
import { isWelcomeSession } from '../lib/welcome-session';
import { PageNotFound } from '../lib/page-not-found';
import { PATHS, userPath } from '../lib/paths';
import { HomeHeader } from '../components/home-header';
import { PageLoading } from '../components/page-loading';
import { WithAddress } from '../components/address';
import { getAdminMe } from '../features/admin/api/admin-me';
import { getClaim } from '../features/admin/api/claim';
import { CONSOLE_PATH } from '../features/admin/lib/sections';
import './home.css';

const SessionsPanel = lazy(() =>
  import('../features/account-home/components/sessions-panel').then((m) => ({ default: m.SessionsPanel })),
);
const PolicyBanner = lazy(() =>
  import('../features/account-home/components/policy-banner').then((m) => ({ default: m.PolicyBanner })),
);
const SecurityPanel = lazy(() =>
  import('../features/account-home/components/security-panel').then((m) => ({ default: m.SecurityPanel })),
);
const MeetingsPanel = lazy(() =>
  import('../features/meeting/components/meetings-panel').then((m) => ({ default: m.MeetingsPanel })),
);
const FilesPanel = lazy(() =>
  import('../features/file-share/components/files-panel').then((m) => ({ default: m.FilesPanel })),
);

/** What each section shows; each part loads with the section's first visit. */
const SECTIONS: Record<HomeSection, () => ReactNode> = {
  meetings: () => <MeetingsPanel />,
  files: () => <FilesPanel />,
  security: () => <SecurityPanel />,
  sessions: () => <SessionsPanel />,
};

/**
 * Whether this session's person administers a domain (the Administration section): asked once per
 * session token, not on every section, so that the navigation does not change under the pointer.
 */
type AdminEntry = 'console' | 'claim' | false;
let adminAnswer: { token: string; admin: Promise<AdminEntry | 'ended'> } | null = null;
function isAdmin(token: string): Promise<AdminEntry | 'ended'> {
  if (adminAnswer?.token !== token) {
    // The same question says whether the session still holds (ended elsewhere, or the person deactivated).
    // Someone of a company domain nobody administers yet gets the entry too: it opens the DNS proof
    // (GET /admin/claim answers 403 for a personal address: no entry).
    const admin = getAdminMe().then(
      (me): AdminEntry => (me.domains.length > 0 ? 'console' : false),
      (error: unknown): Promise<AdminEntry | 'ended'> | AdminEntry | 'ended' => {
        if (error instanceof ApiError && error.status === 401) return 'ended';
        if (!(error instanceof ApiError && error.status === 404)) return false;
        return getClaim().then(
          (claim) => (claim.admin ? false : 'claim'),
          () => false,
        );
      },
    );
    adminAnswer = { token, admin };
  }
  return adminAnswer.admin;
}

const sectionOf = (pathname: string): HomeSection | 'none' | undefined => {
  const rest = pathname.replace(/^\/app\/?/, '').replace(/\/+$/, '');
  if (!rest) return 'none';
  return (HOME_SECTIONS as readonly string[]).includes(rest) ? (rest as HomeSection) : undefined;
};

/**
 * The signed-in home at the default main app address (`/app`; a real main app replaces it via
 * MAIN_APP_URL): a header with the sections (Meetings, Files, Security, Sessions, and Administration for
 * a domain administrator) and one section at a time, each at its own address (/app is Meetings too: the
 * address every sign-in lands on stays as it is, no extra history entry). The
 * header and the section's frame paint at once, from this screen's own code; the section's parts fill in
 * without moving what is already there.
 */
export default function HomePage() {
  const navigate = useNavigate();
  const [pathname] = useLocation();
  const { t } = useTranslation('home');
  const found = sectionOf(pathname);
  const section: HomeSection = found === 'none' || found === undefined ? 'meetings' : found;
  useDocumentTitle(`${t(`nav.${section}`)} · ${t('title')}`);
  // A welcome-step session opens nothing here (the server refuses it): its place is the welcome step.
  const welcome = isWelcomeSession();
  const token = currentToken();
  const signedIn = Boolean(token) && !welcome;
  // Unknown until asked: the way to prove one's domain shows only once it is known that it is not administered.
  const [admin, setAdmin] = useState<AdminEntry | undefined>();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const email = currentUser()?.email ?? '';
  const profile = actingProfile();
  const name = [profile?.info.first_name, profile?.info.last_name].filter(Boolean).join(' ');
  const shown = useRef(section);

  useEffect(() => {
    if (!signedIn) navigate(userPath(welcome ? 'welcome' : 'login'), { replace: true });
  }, [signedIn, welcome, navigate]);

  useEffect(() => {
    let current = true;
    if (token && signedIn)
      void isAdmin(token).then((answer) => {
        if (!current) return;
        if (answer !== 'ended') return setAdmin(answer);
        clearSession();
        navigate(userPath('login'), { replace: true });
      });
    return () => {
      current = false;
    };
  }, [token, signedIn, navigate]);

  // Another section was chosen: the keyboard and screen reader start at its heading, not on the old link.
  useEffect(() => {
    if (shown.current === section) return;
    shown.current = section;
    titleRef.current?.focus();
  }, [section]);

  if (found === undefined) throw new PageNotFound();
  if (!signedIn) return <PageLoading />;
  const Section = SECTIONS[section];
  return (
    <div className="home">
      <HomeHeader
        current={section}
        adminPath={admin === 'console' ? CONSOLE_PATH : admin === 'claim' ? PATHS.adminClaim : undefined}
      />
      <main id="main" className="home__main" data-section={section}>
        {section === 'meetings' ? (
          // The landing section greets the person and says which account this is.
          <div className="home__greeting">
            <h1 ref={titleRef} tabIndex={-1}>
              {t('greeting', { name: name || email })}
            </h1>
            <p className="muted">
              <WithAddress text={t('signedInAs', { email })} email={email} />
              {profile?.type ? ` · ${t(`profile.${profile.type}`)}` : ''}
            </p>
          </div>
        ) : (
          <h1 ref={titleRef} tabIndex={-1} className="visually-hidden">
            {t(`nav.${section}`)}
          </h1>
        )}
        <Suspense fallback={null}>
          <PolicyBanner />
        </Suspense>
        <Suspense
          fallback={
            <div className="card home__placeholder">
              <PageLoading />
            </div>
          }
        >
          <Section />
        </Suspense>
      </main>
    </div>
  );
}
