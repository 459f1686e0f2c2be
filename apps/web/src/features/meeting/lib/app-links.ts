import type { BrowserInfo } from '../../../lib/browser';

/** Jitsi Meet's mobile apps and desktop app, as their stores and URL schemes register them. */
export const STORE_LINKS = {
  android: 'https://play.google.com/store/apps/details?id=org.jitsi.meet',
  ios: 'https://apps.apple.com/app/jitsi-meet/id1165103905',
  desktop: 'https://github.com/jitsi/jitsi-meet-electron/releases/latest',
} as const;

/**
 * The room name the IFrame API joins: JaaS rooms live under the app id (`<appId>/<room>`), a self-hosted
 * Jitsi's at the top.
 */
export function jitsiRoomName(room: string, jaasAppId?: string | null): string {
  return jaasAppId ? `${jaasAppId}/${room}` : room;
}

/**
 * The link that opens the room in the app. Android: an intent URL for the org.jitsi.meet package with the
 * org.jitsi.meet scheme (falls back to the Play Store when the app is missing); iOS: the org.jitsi.meet://
 * scheme the app registers; desktop: the jitsi-meet:// scheme of Jitsi Meet Electron. On JaaS the room
 * path carries the app id (`8x8.vc/<appId>/<room>`), as the meeting's own URL does.
 */
export function appDeepLink(info: BrowserInfo, host: string, room: string, jaasAppId?: string | null): string {
  const path = `${host}/${jaasAppId ? `${encodeURIComponent(jaasAppId)}/` : ''}${encodeURIComponent(room)}`;
  if (info.os === 'android') {
    const fallback = encodeURIComponent(STORE_LINKS.android);
    return `intent://${path}#Intent;scheme=org.jitsi.meet;package=org.jitsi.meet;S.browser_fallback_url=${fallback};end`;
  }
  if (info.os === 'ios') return `org.jitsi.meet://${path}`;
  return `jitsi-meet://${path}`;
}

/** The host part of the meeting origin (`https://meet.example.com` → `meet.example.com`). */
export const meetHost = (origin: string) => origin.replace(/^https?:\/\//, '');
