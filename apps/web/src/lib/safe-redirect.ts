/**
 * Only same-origin targets (or an explicitly allowed origin) may be redirected to; everything else,
 * including javascript:, data: and protocol-relative URLs, is refused.
 */
export function safeRedirectTarget(raw: string | null | undefined, allowedOrigins: string[] = []): string | null {
  if (!raw) return null;
  const value = raw.trim();
  if (!value || /[\u0000-\u001f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, window.location.origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin === window.location.origin) return `${url.pathname}${url.search}${url.hash}`;
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
