import { lazy, Suspense, useEffect } from 'react';
import { useNavigate } from '../lib/navigation';
import { useTranslation } from '../lib/i18n-react';
import { useConfig } from '../lib/config';
import { useDocumentTitle } from '../lib/use-document-title';
import { currentToken } from '../lib/session';
import { isWelcomeSession } from '../lib/welcome-session';
import { userPath } from '../lib/paths';
import { Logo } from '../components/logo';
import { PageLoading } from '../components/page-loading';
import './home.css';

const AccountPanel = lazy(() =>
  import('../features/account-home/components/account-panel').then((m) => ({ default: m.AccountPanel })),
);
const SessionsPanel = lazy(() =>
  import('../features/account-home/components/sessions-panel').then((m) => ({ default: m.SessionsPanel })),
);
const PolicyBanner = lazy(() =>
  import('../features/account-home/components/policy-banner').then((m) => ({ default: m.PolicyBanner })),
);
const SecurityPanel = lazy(() =>
  import('../features/account-home/components/security-panel').then((m) => ({ default: m.SecurityPanel })),
);
const InvitationLink = lazy(() =>
  import('../features/teammates/invitation-link').then((m) => ({ default: m.InvitationLink })),
);
const MeetingsPanel = lazy(() =>
  import('../features/meeting/components/meetings-panel').then((m) => ({ default: m.MeetingsPanel })),
);
const AdminLink = lazy(() => import('../features/admin/components/admin-link').then((m) => ({ default: m.AdminLink })));
const FilesPanel = lazy(() =>
  import('../features/file-share/components/files-panel').then((m) => ({ default: m.FilesPanel })),
);

/** The signed-in home at the default main app address (`/app`); a real main app replaces it via MAIN_APP_URL. */
export default function HomePage() {
  const navigate = useNavigate();
  const { t } = useTranslation('home');
  const config = useConfig();
  useDocumentTitle(t('title'));
  // A welcome-step session opens nothing here (the server refuses it): its place is the welcome step.
  const welcome = isWelcomeSession();
  const signedIn = Boolean(currentToken()) && !welcome;
  useEffect(() => {
    if (!signedIn) navigate(userPath(welcome ? 'welcome' : 'login'), { replace: true });
  }, [signedIn, welcome, navigate]);
  if (!signedIn) return <PageLoading />;
  return (
    <div className="home">
      <header className="home__header">
        <Logo title={config.appTitle} />
      </header>
      <main id="main" className="home__main">
        <h1 className="visually-hidden">{t('title')}</h1>
        <Suspense fallback={<PageLoading />}>
          <AccountPanel />
          {/* Only for a domain administrator: the way into the console (nothing, not a spinner, for the others). */}
          <Suspense fallback={null}>
            <AdminLink />
          </Suspense>
          <PolicyBanner />
          <div className="home__grid">
            <MeetingsPanel />
            <FilesPanel />
          </div>
          {/* The team link (corporate accounts; nothing for a personal one): copy, replace, turn off. */}
          <InvitationLink manage />
          <SecurityPanel />
          <SessionsPanel />
        </Suspense>
      </main>
    </div>
  );
}
