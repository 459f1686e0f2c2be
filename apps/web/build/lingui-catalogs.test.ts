import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { compileCatalog } from './lingui-catalogs';

const render = (catalog: Record<string, unknown>, id: string, values: Record<string, unknown> = {}, tag = 'en') => {
  const i18n = setupI18n({ locale: 'x', locales: [tag], messages: { x: catalog as never } });
  return i18n._(id, values);
};

describe('catalogs compiled from the locale JSON', () => {
  it('nested keys become <ns>:<dotted.key>; {{var}} is interpolated', () => {
    const catalog = compileCatalog('common', { frame: { copyright: '© {{year}} {{ app }}.' } });
    expect(render(catalog, 'common:frame.copyright', { year: 2026, app: 'Suite' })).toBe('© 2026 Suite.');
  });

  it('key_one/key_other/key_zero become one ICU plural, chosen by the language', () => {
    const catalog = compileCatalog('t', {
      sent_one: '{{count}} sent.',
      sent_other: '{{count}} sent #s.',
      n_zero: 'none',
      n_other: '{{count}}',
    });
    expect(render(catalog, 't:sent', { count: 1 })).toBe('1 sent.');
    expect(render(catalog, 't:sent', { count: 2 })).toBe('2 sent #s.');
    expect(render(catalog, 't:n', { count: 0 })).toBe('none');
    // Portuguese (Brazil) counts 0 as "one", English does not.
    expect(render(catalog, 't:sent', { count: 0 }, 'pt-BR')).toBe('0 sent.');
    expect(render(catalog, 't:sent', { count: 0 }, 'en')).toBe('0 sent #s.');
  });

  it('apostrophes stay text, also right before a placeholder (Italian)', () => {
    const catalog = compileCatalog('t', { a: "Accedi all'{{app}} con l'e-mail '{{email}}'" });
    expect(render(catalog, 't:a', { app: 'app', email: 'a@b.it' })).toBe("Accedi all'app con l'e-mail 'a@b.it'");
  });
});
