import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * WCAG 1.4.11: the outline that shows where to type (fields, code boxes) stands at 3:1 at least against
 * the card, in both schemes; axe does not check it, so this does (e2e/tests/ui-rules.spec.ts checks the
 * colours as the browser computes them).
 */
const css = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
const global = css('./global.css');
const [light, dark] = global.split('@media (prefers-color-scheme: dark)');

const variable = (block: string, name: string) => {
  const value = new RegExp(`${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(block)?.[1];
  if (!value) throw new Error(`${name} not set`);
  return value;
};
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
};
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};

describe('field outlines', () => {
  it.each([
    ['light', light!],
    ['dark', dark!],
  ])('stand at 3:1 at least against the card (%s)', (_scheme, block) => {
    expect(contrast(variable(block, '--field-line'), variable(block, '--surface'))).toBeGreaterThanOrEqual(3);
  });

  it('is what text fields and code boxes are drawn with', () => {
    expect(css('../components/ui.css')).toMatch(/\.field__control \{[^}]*border: 1\.5px solid var\(--field-line\)/);
    expect(css('../components/code-boxes.css')).toMatch(/border: 1\.5px solid var\(--field-line\)/);
  });
});
