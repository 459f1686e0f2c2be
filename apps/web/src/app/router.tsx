import { createBrowserRouter, type RouteObject } from 'react-router';
import { PATHS } from '../lib/paths';
import { currentLanguage, loadTexts } from '../lib/i18n';
import { PageFrame } from './page-frame';
import { RouteError } from './route-error';

/**
 * Wraps a lazily imported default export as a route's Component; the texts it shows (`namespaces`)
 * load in parallel with its code instead of after it.
 */
const page =
  (load: () => Promise<{ default: React.ComponentType }>, namespaces: string[] = []): RouteObject['lazy'] =>
  async () => {
    const [module] = await Promise.all([load(), ...namespaces.map((ns) => loadTexts(currentLanguage(), ns))]);
    return { Component: module.default };
  };

/** The one route table (spec §2). Every screen is its own chunk. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: PATHS.root, lazy: page(() => import('../features/root-redirect/root-redirect')) },
      { path: PATHS.meet, lazy: page(() => import('../features/meeting/meeting-page')) },
      { path: PATHS.home, lazy: page(() => import('./home-page')) },
      {
        Component: PageFrame,
        children: [
          { path: PATHS.user, lazy: page(() => import('./user-layout')) },
          { path: PATHS.auth, lazy: page(() => import('../features/auth-handoff/auth-handoff-page'), ['pages']) },
          { path: PATHS.clear, lazy: page(() => import('../features/clear-storage/clear-storage-page')) },
          { path: PATHS.loginErrorSso, lazy: page(() => import('../features/sso-error/sso-error-page')) },
          {
            path: PATHS.supportedBrowser,
            lazy: page(() => import('../features/supported-browser/supported-browser-page')),
          },
          { path: PATHS.guest, lazy: page(() => import('../features/guest/guest-page'), ['guest', 'errors']) },
          {
            path: PATHS.confirmInvite,
            lazy: page(() => import('../features/invite/invite-page'), ['invite', 'errors']),
          },
          {
            path: PATHS.fileDownload,
            lazy: page(() => import('../features/file-download/file-download-page'), ['fileDownload']),
          },
          { path: PATHS.thirdPartyCookies, lazy: page(() => import('../features/meeting/third-party-cookies-page')) },
          { path: '*', lazy: page(() => import('./not-found-page')) },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
