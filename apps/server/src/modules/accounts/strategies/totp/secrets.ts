import { createHmac, randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_PERIOD_S, TOTP_WINDOW } from '@suite/contract';

/**
 * The cryptography of two-step verification, free of storage: RFC 6238 codes through otpauth (loaded
 * on first use) and recovery codes kept as HMACs. The app secret is sealed at rest with keys.ts's seal
 * under the 'totp' ring (a rotated SESSION_SECRET still opens older secrets).
 */

let otpauth: Promise<typeof import('otpauth')> | undefined;
const loadOtpauth = () => (otpauth ??= import('otpauth'));

/** A new 160-bit secret (RFC 4226's recommended length), base32. */
export async function newSecret(): Promise<string> {
  const { Secret } = await loadOtpauth();
  return new Secret({ size: 20 }).base32;
}

async function totpOf(base32: string, label = '', issuer = '') {
  const { Secret, TOTP } = await loadOtpauth();
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(base32),
  });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export async function otpauthUri(base32: string, account: string, issuer: string): Promise<string> {
  return (await totpOf(base32, account, issuer)).toString();
}

/**
 * The RFC 6238 time step a code belongs to, within ±TOTP_WINDOW steps of `now`, or null. The caller
 * refuses a step at or before the last one used, so each code works once.
 */
export async function codeStep(base32: string, code: string, now = Date.now()): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = (await totpOf(base32)).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

/** The code of an app secret at `now` (tests, and what an authenticator app shows). */
export async function currentCode(base32: string, now = Date.now()): Promise<string> {
  return (await totpOf(base32)).generate({ timestamp: now });
}

/** The otpauth URI drawn as an SVG QR code (uqr, on the server: no outside service, no web bundle weight). */
export async function qrSvg(uri: string): Promise<string> {
  const { renderSVG } = await import('uqr');
  return renderSVG(uri, { ecc: 'M', border: 2 });
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RECOVERY_CODE_COUNT codes of 50 random bits each, written `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => BASE32[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A typed recovery code as stored: lower case, no separator or spaces. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** The stored form of a recovery code: HMAC under one code key, bound to its account. */
export const hashRecoveryCode = (key: Uint8Array, userId: string, code: string) =>
  createHmac('sha256', key)
    .update(`recovery-code\n${userId}\n${normalizeRecoveryCode(code)}`)
    .digest('hex');
