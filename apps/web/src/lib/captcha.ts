import type { CaptchaAction } from '@suite/contract/core';

/**
 * reCAPTCHA v3 (spec §7: a token for a named action). Only when a site key is configured: then the
 * script is loaded on first use, never on start-up; without a key nothing is loaded or sent.
 */
interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

/**
 * How long a submit waits for the captcha service (loading the script, ready, execute) before going on
 * without a token. A client-side safeguard, not a business rule: Google's script can hang for ever.
 */
export const CAPTCHA_TIMEOUT_MS = 5000;

let loading: Promise<Grecaptcha> | null = null;

function loadScript(siteKey: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const api = window.grecaptcha;
      if (api) api.ready(() => resolve(api));
      else reject(new Error('captcha unavailable'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('captcha unavailable'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The token for `action` (the server accepts it only on that action's routes), or undefined without a
 * site key or when the captcha service cannot be reached.
 */
export async function captchaToken(siteKey: string, action: CaptchaAction): Promise<string | undefined> {
  if (!siteKey) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CAPTCHA_TIMEOUT_MS);
  });
  const token = (async () => {
    const api = await loadScript(siteKey);
    return await api.execute(siteKey, { action });
  })();
  try {
    // Whichever comes first: a hanging ready() or execute() must not hold the submit for ever.
    return await Promise.race([token, timeout]);
  } catch {
    // The server decides whether a missing token is acceptable; the form still submits.
    return undefined;
  } finally {
    clearTimeout(timer);
    token.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
  }
}
