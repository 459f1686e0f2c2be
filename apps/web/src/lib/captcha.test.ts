import { afterEach, describe, expect, it, vi } from 'vitest';
import { captchaToken } from './captcha';

/**
 * A fresh copy of the module (its script-loading promise is module state). The script element is kept
 * out of the document (happy-dom refuses to load scripts and would report an error at once); the test
 * fires its load event itself.
 */
let added: HTMLScriptElement[] = [];
async function freshCaptcha() {
  vi.resetModules();
  added = [];
  vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
    added.push(node as unknown as HTMLScriptElement);
    return node;
  });
  return import('./captcha');
}
const lastScript = () => added.at(-1);

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  delete window.grecaptcha;
  document.querySelectorAll('script[src*="recaptcha"]').forEach((s) => s.remove());
});

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

  it('gives the token of the named action', async () => {
    const { captchaToken: token } = await freshCaptcha();
    const execute = vi.fn(async () => 'token-1');
    window.grecaptcha = { ready: (callback) => callback(), execute };
    const pending = token('site-key-2', 'login');
    lastScript()?.dispatchEvent(new Event('load'));
    expect(await pending).toBe('token-1');
    expect(execute).toHaveBeenCalledWith('site-key-2', { action: 'login' });
  });

  it('goes on without a token when ready() never calls back', async () => {
    vi.useFakeTimers();
    const { captchaToken: token, CAPTCHA_TIMEOUT_MS } = await freshCaptcha();
    window.grecaptcha = { ready: () => undefined, execute: vi.fn() };
    let result: string | undefined | 'pending' = 'pending';
    void token('site-key-3', 'signup').then((t) => (result = t));
    lastScript()?.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(CAPTCHA_TIMEOUT_MS - 1);
    expect(result).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeUndefined();
  });

  it('goes on without a token when execute() never settles', async () => {
    vi.useFakeTimers();
    const { captchaToken: token, CAPTCHA_TIMEOUT_MS } = await freshCaptcha();
    window.grecaptcha = { ready: (callback) => callback(), execute: () => new Promise<string>(() => undefined) };
    let result: string | undefined | 'pending' = 'pending';
    void token('site-key-4', 'recovery').then((t) => (result = t));
    lastScript()?.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(CAPTCHA_TIMEOUT_MS - 1);
    expect(result).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeUndefined();
  });
});
