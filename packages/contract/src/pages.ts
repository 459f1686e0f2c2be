import { USER_COMPONENTS, type UserComponent } from './constants.js';

/**
 * The one route table of the web app (spec §2). The web's router renders it (first match wins; an
 * address that matches none gets the not-found screen), the web build prerenders every `entry` page in
 * each language (apps/web/dist/pages/<name>.<lang>.html), and the server answers those addresses with
 * those files; links the server writes (mails, redirects) take their paths from here too. Adding a
 * screen is one line here plus its module.
 */
export interface WebPage<N extends string = string> {
  /** Names the page: PATHS.<name> on the web, the prerendered file's name. */
  name: N;
  /** wouter / Fastify pattern (`:param` segments). */
  path: string;
  /** The module under apps/web/src whose default export renders the page (its own chunk). */
  screen: string;
  /** Inside the shared frame of sign-in style screens (header, footer, language switch). */
  frame: boolean;
  /** Namespaces the screen shows first besides 'common': loaded with its code, not after it. */
  texts: readonly string[];
  /** An entry screen: prerendered at build in every language, hydrated in the browser. */
  entry: boolean;
  /** A `/user/*` form: rendered inside the two-panel user layout, which cross-fades between them. */
  form?: UserComponent;
  /** The values a `:param` may take where they are a fixed set: any other is not this page (404). */
  params?: Readonly<Record<string, readonly string[]>>;
}

/** The `/user/*` forms: their screen modules and first texts (the code check serves both modes). */
const FORMS: Record<UserComponent, { screen: string; texts: string[]; entry: boolean }> = {
  // No entry screen shows the error texts at first: they load after it (apps/web lib/use-error-message.ts).
  signup: { screen: 'features/signup/signup-form', texts: ['signup'], entry: true },
  welcome: { screen: 'features/welcome/welcome-form', texts: ['welcome'], entry: true },
  // Reached only signed in, from the welcome step: not an entry screen.
  'add-teammates': { screen: 'features/teammates/teammates-form', texts: ['teammates', 'errors'], entry: false },
  login: { screen: 'features/login/login-form', texts: ['login'], entry: true },
  'recovery-password': { screen: 'features/recovery/recovery-form', texts: ['recovery'], entry: true },
  'check-token': { screen: 'features/code-check/code-check-form', texts: ['codeCheck'], entry: true },
  'check-token-recovery': { screen: 'features/code-check/code-check-form', texts: ['codeCheck'], entry: true },
  'update-password': {
    screen: 'features/update-password/update-password-form',
    texts: ['updatePassword'],
    entry: true,
  },
};

const page = <N extends string>(
  name: N,
  path: string,
  screen: string,
  options: {
    frame?: boolean;
    texts?: string[];
    entry?: boolean;
    params?: Readonly<Record<string, readonly string[]>>;
  } = {},
): WebPage<N> => ({
  name,
  path,
  screen,
  frame: options.frame ?? true,
  texts: options.texts ?? [],
  entry: options.entry ?? false,
  ...(options.params ? { params: options.params } : {}),
});

/**
 * Whether a page's matched `:param` values are ones it has (WebPage.params): the web's router and the
 * server's page matcher both ask this, so an address the web would not show is a 404 on the server too.
 */
export const paramsAllowed = (page: WebPage, values: Readonly<Record<string, string | undefined>>): boolean =>
  Object.entries(page.params ?? {}).every(([key, allowed]) => allowed.includes(values[key] ?? ''));

/** The signed-in home's sections, each at /app/<section>; /app itself opens the first. */
export const HOME_SECTIONS = ['meetings', 'files', 'security', 'sessions'] as const;
export type HomeSection = (typeof HOME_SECTIONS)[number];

export const WEB_PAGES = [
  page('root', '/', 'features/root-redirect/root-redirect', { frame: false }),
  page('meet', '/meet/:roomName', 'features/meeting/meeting-page', { frame: false }),
  page('home', '/app', 'app/home-page', { frame: false, texts: ['home'] }),
  // The domain administrator's console: one screen, a section per address; the mail's decision link first.
  page('adminDecide', '/app/admin/decide', 'features/admin/decide-page', { texts: ['admin'] }),
  // Proving one's own domain by DNS: for people who do not administer it yet (the console is 404 for them).
  page('adminClaim', '/app/admin/prove-domain', 'features/admin/claim-page', {
    frame: false,
    texts: ['admin', 'home'],
  }),
  page('admin', '/app/admin', 'features/admin/admin-page', { frame: false, texts: ['admin', 'home'] }),
  page('adminSection', '/app/admin/:section', 'features/admin/admin-page', {
    frame: false,
    texts: ['admin', 'home'],
  }),
  // The home's other sections (HOME_SECTIONS), one screen with /app: after the console's addresses.
  page('homeSection', '/app/:section', 'app/home-page', {
    frame: false,
    texts: ['home'],
    params: { section: HOME_SECTIONS },
  }),
  ...USER_COMPONENTS.map((form) => ({
    ...page(`user-${form}` as const, `/user/${form}`, FORMS[form].screen, FORMS[form]),
    form,
  })),
  page('auth', '/auth', 'features/auth-handoff/auth-handoff-page', { texts: ['pages'] }),
  page('notMe', '/security/not-me', 'features/not-me/not-me-page', { texts: ['notMe'] }),
  page('clear', '/clear', 'features/clear-storage/clear-storage-page', { texts: ['pages'], entry: true }),
  page('loginErrorSso', '/login-error-sso', 'features/sso-error/sso-error-page', {
    texts: ['ssoError'],
    entry: true,
  }),
  page('supportedBrowser', '/supported-browser', 'features/supported-browser/supported-browser-page', {
    texts: ['supportedBrowser'],
    entry: true,
  }),
  page('guest', '/guest', 'features/guest/guest-page', { texts: ['guest'], entry: true }),
  page('confirmInvite', '/confirm-invite', 'features/invite/invite-page', { texts: ['invite'], entry: true }),
  page('fileDownload', '/file/:fileId/download_link', 'features/file-download/file-download-page', {
    texts: ['fileDownload'],
    entry: true,
  }),
  page('thirdPartyCookies', '/help/third-party-cookies', 'features/meeting/third-party-cookies-page'),
] as const satisfies readonly WebPage[];

export type PageName = (typeof WEB_PAGES)[number]['name'];

/** The page of that name (the table's names are fixed: a wrong one is a programming error). */
export function webPage(name: PageName): WebPage {
  const found = (WEB_PAGES as readonly WebPage[]).find((p) => p.name === name);
  if (!found) throw new Error(`no web page named ${name}`);
  return found;
}

/** A page's address with its `:params` filled (encoded), e.g. for links in mails. */
export function pageUrl(name: PageName, params: Record<string, string> = {}, query?: Record<string, string>): string {
  const path = webPage(name).path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
  return query ? `${path}?${new URLSearchParams(query).toString()}` : path;
}
