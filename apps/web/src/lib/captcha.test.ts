import { describe, expect, it } from 'vitest';
import { captchaToken } from './captcha';

describe('captchaToken', () => {
  it('loads nothing and gives no token without a site key', async () => {
    expect(await captchaToken('', 'login')).toBeUndefined();
    expect(document.querySelector('script[src*="recaptcha"]')).toBeNull();
  });

  it('loads the v3 script for the site key on first use, and gives up quietly when it cannot load', async () => {
    const pending = captchaToken('site-key-1', 'signup');
    const script = document.querySelector<HTMLScriptElement>('script[src*="recaptcha"]');
    expect(script?.src).toBe('https://www.google.com/recaptcha/api.js?render=site-key-1');
    script?.dispatchEvent(new Event('error'));
    expect(await pending).toBeUndefined();
  });
});
