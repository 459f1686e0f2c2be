import { decodeJwt, type JWTPayload } from 'jose';

/** Decodes without verifying (the server verifies); null when it is not a JWT. */
export function decodeToken<T extends object = Record<string, unknown>>(token: string): (JWTPayload & T) | null {
  try {
    return decodeJwt(token) as JWTPayload & T;
  } catch {
    return null;
  }
}

export function isExpired(payload: JWTPayload | null, now = Date.now()): boolean {
  return !payload || typeof payload.exp !== 'number' || payload.exp * 1000 <= now;
}
