import { compileMessage } from '@lingui/message-utils/compileMessage';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The interface texts stay as JSON per language and namespace (src/locales/<lang>/<ns>.json: nested
 * keys, `{{var}}`, i18next-style plural keys `key_one`/`key_other`/`key_zero`), which is what people
 * edit. At build (and in the tests) each file is compiled by Lingui's message compiler into the
 * catalog @lingui/core reads: ICU messages (`{var}`, `{count, plural, =0 {…} one {…} other {…}}`),
 * parsed ahead of time, under the ids `<ns>:<dotted.key>`. No message parser ships to the browser.
 */
const PLURAL_KEY = /^(.*)_(zero|one|two|few|many|other)$/;

/** A text as ICU MessageFormat: apostrophes doubled (literal), `#` literal inside plurals, `{{x}}` → `{x}`. */
const toIcu = (text: string, inPlural: boolean) =>
  (inPlural ? text.replace(/'/g, "''").replace(/#/g, "'#'") : text.replace(/'/g, "''")).replace(
    /\{\{\s*(\w+)\s*\}\}/g,
    '{$1}',
  );

export function compileCatalog(ns: string, texts: unknown): Record<string, unknown> {
  const flat: [string, string][] = [];
  const walk = (node: unknown, prefix: string) => {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (value !== null && typeof value === 'object') walk(value, `${prefix}${key}.`);
      else flat.push([`${prefix}${key}`, String(value)]);
    }
  };
  walk(texts, '');
  const messages = new Map<string, string>();
  const plurals = new Map<string, [string, string][]>();
  for (const [key, text] of flat) {
    const plural = PLURAL_KEY.exec(key);
    if (plural) plurals.set(plural[1]!, [...(plurals.get(plural[1]!) ?? []), [plural[2]!, text]]);
    else messages.set(key, toIcu(text, false));
  }
  for (const [key, forms] of plurals) {
    const choices = forms.map(([form, text]) => `${form === 'zero' ? '=0' : form} {${toIcu(text, true)}}`);
    messages.set(key, `{count, plural, ${choices.join(' ')}}`);
  }
  return Object.fromEntries([...messages].map(([key, icu]) => [`${ns}:${key}`, compileMessage(icu)]));
}

/** Vite plugin: every src/locales/<lang>/<ns>.json import becomes that namespace's compiled catalog. */
export function linguiCatalogs(localeFile: RegExp): Plugin {
  return {
    name: 'lingui-catalogs',
    enforce: 'pre',
    transform(code, id) {
      const match = localeFile.exec(id);
      if (!match) return null;
      // Still JSON: Vite's own JSON plugin turns it into the module.
      return { code: JSON.stringify(compileCatalog(match[2]!, JSON.parse(code))), map: null };
    },
  };
}

/**
 * The browser build's catalogs: every src/locales/<lang>/<ns>.json, compiled, written as
 * assets/<ns>-<lang>-<version>.json, which lib/i18n.ts fetches by that computed name. Plain JSON files
 * instead of one module each: no loader map of 80 dynamic imports in every first load (~0.5 KB br), and
 * JSON parses faster than the same object as JavaScript. `version` is one hash of all locale files.
 */
export function linguiCatalogAssets(dir: string, version: string, apply: Plugin['apply']): Plugin {
  return {
    name: 'lingui-catalog-assets',
    apply,
    generateBundle() {
      for (const lang of readdirSync(dir))
        for (const file of readdirSync(join(dir, lang))) {
          const ns = file.replace(/\.json$/, '');
          const texts: unknown = JSON.parse(readFileSync(join(dir, lang, file), 'utf8'));
          this.emitFile({
            type: 'asset',
            fileName: `assets/${ns}-${lang}-${version}.json`,
            source: JSON.stringify(compileCatalog(ns, texts)),
          });
        }
    },
  };
}
