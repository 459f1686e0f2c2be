import { WEB_PAGES, type PageName, type UserComponent } from '@suite/contract/core';

/**
 * Every client route's pattern by page name, from the one route table (`WEB_PAGES` in the contract).
 * Lives in lib so features can link without importing the app layer.
 */
export const PATHS = Object.fromEntries(WEB_PAGES.map((p) => [p.name, p.path])) as Record<PageName, string>;

export const userPath = (component: UserComponent): string => `/user/${component}`;
export const meetPath = (roomName: string): string => `/meet/${encodeURIComponent(roomName)}`;
