import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawnText, firstFrameFonts, parseUnicodeRange, unicodeRange } from './first-frame-fonts.mjs';

const require = createRequire(import.meta.url);
// The @fontsource package as the build's output folder: its files/ as the stylesheet names them.
const fontsource = join(dirname(require.resolve('@fontsource/poppins/files/poppins-latin-400-normal.woff2')), '..');
const face = (family, weight, file, range, display = 'optional') =>
  `@font-face{font-family:${family};font-style:normal;font-display:${display};font-weight:${weight};src:url(/files/${file})format("woff2");unicode-range:${range}}`;
const LATIN = 'U+??,U+131,U+152-153,U+2000-206F';
const CSS = [
  face('Poppins', 400, 'poppins-devanagari-400-normal.woff2', 'U+900-97F', 'block'),
  face('Poppins', 400, 'poppins-latin-ext-400-normal.woff2', 'U+100-2BA,U+1E00-1E9F'),
  face('Poppins', 400, 'poppins-latin-400-normal.woff2', LATIN),
  face('Poppins', 600, 'poppins-latin-600-normal.woff2', LATIN),
  face('Poppins UI', 400, 'poppins-latin-400-normal.woff2', LATIN),
  // A face of the system's (no file): nothing to carry.
  '@font-face{font-family:Poppins Fallback;font-weight:400;src:local(Arial);size-adjust:113.73%}',
  '.a{color:red}',
].join('');

const rules = ({ style, urls }) => {
  // Each face's data: URL is also preloaded: the list names each one once.
  expect(urls).toEqual([...new Set([...style.matchAll(/url\((data:[^)]+)\)/g)].map((m) => m[1]))]);
  return [...style.matchAll(/@font-face\{([^}]*)\}/g)].map((m) => ({
    family: /font-family:([^;]+)/.exec(m[1])[1],
    weight: /font-weight:([^;]+)/.exec(m[1])[1],
    display: /font-display:([^;]+)/.exec(m[1])[1],
    range: /unicode-range:([^;]+)/.exec(m[1])[1],
    font: Buffer.from(/url\(data:font\/woff2;base64,([^)]+)\)/.exec(m[1])[1], 'base64'),
  }));
};

describe("a prerendered page's first-frame fonts", () => {
  it('carries each latin face its text uses, cut to exactly that text, and names those characters', async () => {
    const carried = rules(await firstFrameFonts(fontsource, CSS, 'Sign in, Ada'));
    expect(carried.map((r) => `${r.family} ${r.weight}`)).toEqual(['Poppins 400', 'Poppins 600', 'Poppins UI 400']);
    for (const rule of carried) {
      // Exactly the page's characters: " ", ",", "A", "S", "a", "d", "g", "i", "n".
      expect(rule.range).toBe('U+20,U+2C,U+41,U+53,U+61,U+64,U+67,U+69,U+6E');
      // Drawn from the first frame (it is in the page): never the fallback.
      expect(rule.display).toBe('block');
      expect(rule.font.subarray(0, 4).toString('latin1')).toBe('wOF2');
    }
    // A fraction of the full face, which still serves every other character.
    const full = readFileSync(join(fontsource, 'files/poppins-latin-400-normal.woff2')).length;
    expect(carried[0].font.length).toBeLessThan(full / 2);
    // Both families of one file get the same cut.
    expect(carried[2].font.equals(carried[0].font)).toBe(true);
  });

  it('adds a latin-ext face for a character only it has; never a Devanagari face; nothing for no text', async () => {
    const carried = rules(await firstFrameFonts(fontsource, CSS, 'Łódź हिन्दी'));
    const ext = carried.filter((r) => r.range === 'U+141,U+17A');
    expect(ext.map((r) => `${r.family} ${r.weight}`)).toEqual(['Poppins 400']);
    // No rule names a Devanagari character: those faces stay files the page preloads.
    for (const rule of carried) expect(parseUnicodeRange(rule.range).some(([from]) => from >= 0x900)).toBe(false);
    expect(await firstFrameFonts(fontsource, CSS, '')).toEqual({ style: '', urls: [] });
  });

  it("reads the text a page draws: text, an SVG's text, fields' values and placeholders; not scripts", () => {
    const template = document.createElement('template');
    template.innerHTML =
      '<h1>Hi</h1><input placeholder="you@x" value="v"><input type="hidden" value="Q"><svg><title>T</title><text>Z</text></svg><script>K</script>';
    const text = drawnText(template.content);
    expect(text).toContain('Hi');
    expect(text).toContain('you@x');
    expect(text).toContain('v');
    expect(text).toContain('Z');
    expect(text).not.toMatch(/[QTK]/);
  });

  it('writes and reads unicode-range values', () => {
    expect(unicodeRange([0x20, 0x41, 0x42, 0x43, 0x61])).toBe('U+20,U+41-43,U+61');
    expect(parseUnicodeRange('U+??,U+131,U+2000-206F')).toEqual([
      [0, 0xff],
      [0x131, 0x131],
      [0x2000, 0x206f],
    ]);
  });
});
