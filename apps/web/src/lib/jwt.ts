/** The claims the app reads from a session or invite token (the server verifies the signature). */
export interface JWTPayload {
  exp?: number;
  iat?: number;
  [claim: string]: unknown;
}

/** Decodes without verifying (the server verifies); null when it is not a compact JWS with a JSON object payload. */
export function decodeToken<T extends object = Record<string, unknown>>(token: string): (JWTPayload & T) | null {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || !parts[1] || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const payload: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as JWTPayload & T)
      : null;
  } catch {
    return null;
  }
}

export function isExpired(payload: JWTPayload | null, now = Date.now()): boolean {
  return !payload || typeof payload.exp !== 'number' || payload.exp * 1000 <= now;
}
