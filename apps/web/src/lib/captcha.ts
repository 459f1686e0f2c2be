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

export type CaptchaAction = 'signup' | 'login' | 'recovery' | 'resend';

/** The token for `action`, or undefined without a site key or when the captcha service cannot be reached. */
export async function captchaToken(siteKey: string, action: CaptchaAction): Promise<string | undefined> {
  if (!siteKey) return undefined;
  try {
    const api = await loadScript(siteKey);
    return await api.execute(siteKey, { action });
  } catch {
    // The server decides whether a missing token is acceptable; the form still submits.
    return undefined;
  }
}
