import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../env';

export type Lang = 'en' | 'pt' | 'es' | 'hi' | 'it';
export const BROWSER_LOCALE: Record<Lang, string> = { en: 'en-US', pt: 'pt-BR', es: 'es-ES', hi: 'hi-IN', it: 'it-IT' };

/** The app's own locale files: tests find controls by the texts a user of that language sees. */
export function texts(lang: Lang, namespace: string): (key: string, vars?: Record<string, string | number>) => string {
  const data = JSON.parse(
    readFileSync(join(REPO, 'apps/web/src/locales', lang, `${namespace}.json`), 'utf8'),
  ) as Record<string, unknown>;
  return (key, vars = {}) => {
    const value = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], data);
    if (typeof value !== 'string') throw new Error(`no text ${lang}/${namespace}:${key}`);
    return value.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(vars[name] ?? ''));
  };
}
