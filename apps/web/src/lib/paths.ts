import type { UserComponent } from '@suite/contract/core';

/** Every client route (spec §2). Lives in lib so features can link without importing the app layer. */
export const PATHS = {
  root: '/',
  home: '/app',
  auth: '/auth',
  meet: '/meet/:roomName',
  supportedBrowser: '/supported-browser',
  guest: '/guest',
  confirmInvite: '/confirm-invite',
  user: '/user/:componentUrl',
  clear: '/clear',
  loginErrorSso: '/login-error-sso',
  fileDownload: '/file/:fileId/download_link',
  thirdPartyCookies: '/help/third-party-cookies',
} as const;

export const userPath = (component: UserComponent): string => `/user/${component}`;
export const meetPath = (roomName: string): string => `/meet/${encodeURIComponent(roomName)}`;
