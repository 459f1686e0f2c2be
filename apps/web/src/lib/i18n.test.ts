import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, fixedT, initI18n, loadTexts } from './i18n';

describe('texts', () => {
  beforeAll(async () => {
    await initI18n('en');
    await Promise.all(['login', 'errors'].map((ns) => loadTexts('en', ns)));
  });

  it('finds keys in the namespace, then in common; ns: prefixes; the key itself when missing', async () => {
    const t = fixedT('en', 'login');
    expect(t('loading')).toBe('Loading…');
    expect(t('errors:ERR_NOT_FOUND')).not.toBe('ERR_NOT_FOUND');
    expect(t('no.such.key')).toBe('no.such.key');
    expect(t('no.such.key', { defaultValue: 'Fallback {{n}}', n: 2 })).toBe('Fallback 2');
  });

  it('interpolates every {{value}} given and leaves unknown ones as they are', () => {
    const t = fixedT('en', 'login');
    expect(t('missing', { defaultValue: '{{a}} and {{ b }} but {{c}}', a: 1, b: 'two' })).toBe('1 and two but {{c}}');
  });

  it('a language change loads every namespace in use in the new language', async () => {
    await changeLanguage('pt');
    expect(fixedT('pt', 'login')('loading')).toBe('Carregando…');
    expect(fixedT('pt', 'errors')('ERR_NOT_FOUND')).not.toBe(fixedT('en', 'errors')('ERR_NOT_FOUND'));
    await changeLanguage('en');
  });
});
