import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { HOME_SECTIONS, type HomeSection } from '@suite/contract/core';
import { useConfig } from '../lib/config';
import { useTranslation } from '../lib/i18n-react';
import { useNavigate } from '../lib/navigation';
import { userPath } from '../lib/paths';
import { actingProfile, currentUser } from '../lib/session';
import { signOut, signOutEverywhere } from '../lib/sign-out';
import { useErrorMessage } from '../lib/use-error-message';
import { AvatarMenu } from './avatar-menu';
import { useDialog } from './confirm-dialog';
import { Icon } from './icon';
import { Logo } from './logo';
import { showToast } from './toast';
import './home-header.css';
import './destructive.css';

export type HomeNavId = HomeSection | 'admin';

/** The sections' pictures: drawn here, decorative (the label names the section). */
const ICONS: Record<HomeNavId, ReactNode> = {
  meetings: (
    <>
      <rect x="2" y="6" width="14" height="12" rx="3" />
      <path d="m16 10 6-3v10l-6-3" />
    </>
  ),
  files: (
    <>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5" />
    </>
  ),
  security: <path d="M12 3 4 6v6c0 5 3.5 8 8 9 4.5-1 8-4 8-9V6z" />,
  sessions: (
    <>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </>
  ),
  admin: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M3 20c0-3.3 2.7-6 6-6s6 2.7 6 6M16 4.5a3.5 3.5 0 0 1 0 7M18 14c2 .8 3 3 3 6" />
    </>
  ),
};

const homeSectionPath = (section: HomeSection): string => `/app/${section}`;

const InvitationDialog = lazy(() => import('./invitation-dialog'));

/**
 * The signed-in home's header, the same on every section and in the console: the logo, the sections
 * (one at a time, each its own address; Administration only with `adminPath`, for a domain
 * administrator) and the account menu (who is signed in, sign out, sign out of every device). On a wide
 * screen the sections sit in the header; on a phone they are a bar at the bottom of the screen, in reach of
 * the thumb and never scrolled away (home-header.css).
 */
export function HomeHeader({ current, adminPath }: { current: HomeNavId; adminPath?: string }) {
  const { t } = useTranslation('home');
  const config = useConfig();
  const navigate = useNavigate();
  const { confirm } = useDialog();
  const errorMessage = useErrorMessage();
  const user = currentUser();
  const profile = actingProfile();
  const email = user?.email ?? '';
  const name = [profile?.info.first_name, profile?.info.last_name].filter(Boolean).join(' ');
  // A company account invites its teammates (the team link of the sign-up's teammates step); a personal one has no team.
  const team = profile?.type === 'PROFESSIONAL';
  const [inviting, setInviting] = useState(false);

  const leave = (logoutUrl: string | undefined) => {
    // A session from the organization's provider: its session ends too (it sends the browser back to sign-in).
    if (logoutUrl) window.location.assign(logoutUrl);
    else navigate(userPath('login'), { replace: true });
  };
  async function everywhere() {
    const yes = await confirm({
      title: t('menu.allTitle'),
      text: t('menu.allText'),
      primaryLabel: t('menu.allConfirm'),
      secondaryLabel: t('menu.cancel'),
      variant: 'danger',
    });
    if (!yes) return;
    signOutEverywhere().then(leave, (error: unknown) => showToast(errorMessage(error)));
  }

  const entries: { id: HomeNavId; href: string }[] = [
    ...HOME_SECTIONS.map((id) => ({ id, href: homeSectionPath(id) })),
    ...(adminPath ? [{ id: 'admin' as const, href: adminPath }] : []),
  ];
  return (
    <header className="home-header">
      <div className="home-header__bar">
        <Logo title={config.appTitle} />
        <nav className="home-nav" aria-label={t('nav.label')}>
          <ul className="home-nav__list">
            {entries.map((entry) => (
              <li key={entry.id}>
                <Link
                  to={entry.href}
                  className="home-nav__link"
                  aria-current={entry.id === current ? 'page' : undefined}
                >
                  <Icon className="home-nav__icon">{ICONS[entry.id]}</Icon>
                  <span className="home-nav__label">{t(`nav.${entry.id}`)}</span>
                  {/* The phone bar's caption: a fifth of 360px holds about nine letters, so the long names
                      have a short form there; the full name stays the link's name for assistive tech. */}
                  <span className="home-nav__caption" aria-hidden="true">
                    {t(`navShort.${entry.id}`)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <AvatarMenu
          name={name}
          email={email}
          label={t('menu.label', { name: name || email })}
          items={[
            ...(team ? [{ id: 'invite', label: t('menu.invite'), onSelect: () => setInviting(true) }] : []),
            { id: 'signOut', label: t('menu.signOut'), onSelect: () => void signOut().then(leave) },
            { id: 'signOutAll', label: t('menu.signOutAll'), danger: true, onSelect: () => void everywhere() },
          ]}
        />
      </div>
      {inviting ? (
        <Suspense fallback={null}>
          <InvitationDialog onClose={() => setInviting(false)} />
        </Suspense>
      ) : null}
    </header>
  );
}
