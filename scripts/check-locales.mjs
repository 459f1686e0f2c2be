#!/usr/bin/env node
// Fails when any locale misses a key that English has (or has extra ones), when keys are not sorted,
// or when a namespace looks copied from English instead of translated.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../apps/web/src/locales/', import.meta.url).pathname;
const languages = ['en', 'pt', 'es', 'hi', 'it'];
const problems = [];

function flatten(object, prefix = '') {
  return Object.entries(object).flatMap(([key, value]) =>
    value && typeof value === 'object' ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}
function checkSorted(object, where) {
  const keys = Object.keys(object);
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); // code-point order
  if (keys.join('\n') !== sorted.join('\n')) problems.push(`${where}: keys are not sorted`);
  for (const [key, value] of Object.entries(object)) {
    if (value && typeof value === 'object') checkSorted(value, `${where}.${key}`);
  }
}
const load = (lang, file) => JSON.parse(readFileSync(join(root, lang, file), 'utf8'));

const namespaces = readdirSync(join(root, 'en')).filter((f) => f.endsWith('.json'));
for (const file of namespaces) {
  const en = load('en', file);
  checkSorted(en, `en/${file}`);
  const enFlat = new Map(flatten(en));
  for (const lang of languages.slice(1)) {
    const path = join(root, lang, file);
    if (!existsSync(path)) {
      problems.push(`${lang}/${file}: missing file`);
      continue;
    }
    const data = load(lang, file);
    checkSorted(data, `${lang}/${file}`);
    const flat = new Map(flatten(data));
    for (const key of enFlat.keys()) if (!flat.has(key)) problems.push(`${lang}/${file}: missing key ${key}`);
    for (const key of flat.keys()) if (!enFlat.has(key)) problems.push(`${lang}/${file}: extra key ${key}`);
    for (const [key, value] of flat) {
      const placeholders = (s) =>
        [...String(s).matchAll(/{{\s*(\w+)\s*}}/g)]
          .map((m) => m[1])
          .sort()
          .join(',');
      if (enFlat.has(key) && placeholders(value) !== placeholders(enFlat.get(key))) {
        problems.push(`${lang}/${file}: ${key} has other {{placeholders}} than English`);
      }
    }
    const wordy = [...enFlat].filter(([, v]) => typeof v === 'string' && /[a-z]{3,}.*\s.*[a-z]{3,}/i.test(v));
    const same = wordy.filter(([k, v]) => flat.get(k) === v);
    if (wordy.length >= 4 && same.length / wordy.length > 0.2) {
      problems.push(
        `${lang}/${file}: ${same.length} of ${wordy.length} sentences are identical to English (not translated?)`,
      );
    }
  }
}
for (const lang of languages.slice(1)) {
  if (!existsSync(join(root, lang))) continue;
  for (const file of readdirSync(join(root, lang))) {
    if (!namespaces.includes(file)) problems.push(`${lang}/${file}: namespace absent from English`);
  }
}
if (problems.length) {
  console.error(`Locale check failed (${problems.length}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`Locale check: ${namespaces.length} namespaces × ${languages.length} languages, all keys present.`);
