/**
 * The one same-origin redirect rule. A target is resolved against our origin (as the browser would)
 * and kept only when it stays on our origin (returned as a path) or on an explicitly allowed origin
 * (returned whole). Refused: other origins, javascript:/data:, credentials in the URL, backslashes and
 * control characters (browsers read `/\evil.com` as `//evil.com`), and any resolved path that starts
 * with `//` (`/.//evil.com` resolves to the path `//evil.com`, which a navigation reads as another host).
 */
export function safeRedirectTarget(raw: string | null | undefined, allowedOrigins: string[] = []): string | null {
  if (!raw) return null;
  const value = raw.trim();
  if (!value || /[\u0000-\u001f\u007f-\u009f\\]/.test(value)) return null;
  const origin = window.location.origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  if (url.origin === origin) {
    const path = `${url.pathname}${url.search}${url.hash}`;
    if (!path.startsWith('/') || /^\/[/\\]/.test(path)) return null;
    // What is returned must itself resolve to our origin (a second resolution changes nothing).
    return new URL(path, origin).origin === origin ? path : null;
  }
  return allowedOrigins.includes(url.origin) ? url.toString() : null;
}

/** Only http(s) URLs: for avatars, logos and links that come from query parameters. */
export function safeHttpUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}
