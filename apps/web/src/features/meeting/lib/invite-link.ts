/** The mailed invitation's `?invite=` token: its shape, as the server makes them (24 random bytes, base64url). */
const INVITE_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const key = (roomName: string) => `lobbyInvite:${roomName}`;

/**
 * An invitee's personal link token for this room: taken from the address once and kept for
 * this tab only (a reload keeps it), then removed from the address bar, so that the link does not stay
 * in the history or get copied on with the page's address.
 */
export function takeInviteToken(roomName: string): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('invite');
  try {
    if (fromUrl !== null) {
      url.searchParams.delete('invite');
      window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
      if (INVITE_SHAPE.test(fromUrl)) sessionStorage.setItem(key(roomName), fromUrl);
    }
    return sessionStorage.getItem(key(roomName));
  } catch {
    return fromUrl !== null && INVITE_SHAPE.test(fromUrl) ? fromUrl : null;
  }
}
