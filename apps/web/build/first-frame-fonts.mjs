// The Poppins glyphs a prerendered page's first frame draws, carried in its HTML (build/prerender.mjs).
//
// Lighthouse's mobile estimate counts every request the first frame waits for at 150 ms a round trip,
// and each font face fetched is one or two more (a second face opens a second connection): with Poppins
// fetched, no first frame came before 0.9 s. So each page carries, as data: URLs in one <style> of its
// own, the faces its text uses, cut (harfbuzz's subsetter, through subset-font) to the characters of
// that text, with `unicode-range` set to exactly those characters. They are declared after the
// stylesheet's full faces, so the browser draws those characters with them and never fetches a full
// face for them; any other character (typed input, a message the app shows later) still finds the full
// self-hosted face by its range and fetches it then.
//
// The Devanagari faces are not carried: their glyphs come with many ligatures (a subset for one page is
// about 27 KB a weight, most of the full 39 KB), far more than the HTML can carry in the round trip it
// has; a Hindi page keeps preloading them (build/prerender.mjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import subsetFont from 'subset-font';

/** Faces of the page's CSS that stay network fetches (see above). */
const NOT_CARRIED = /devanagari/;

/** The characters CSS adds itself (generated content: a space, a no-break space). */
const GENERATED = ' \u00a0';

/** Code points of a `unicode-range` value ("U+0-FF,U+131,U+2??"). */
export function parseUnicodeRange(value) {
  return value.split(',').map((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return from.includes('?')
      ? [parseInt(from.replaceAll('?', '0'), 16), parseInt(from.replaceAll('?', 'F'), 16)]
      : [parseInt(from, 16), parseInt(to.replace(/^U\+/i, ''), 16)];
  });
}

/** A sorted list of code points as a `unicode-range` value, runs merged ("U+20,U+41-43"). */
export function unicodeRange(codePoints) {
  const parts = [];
  for (let i = 0; i < codePoints.length; i++) {
    const start = codePoints[i];
    while (codePoints[i + 1] === codePoints[i] + 1) i++;
    const hex = (n) => n.toString(16).toUpperCase();
    parts.push(start === codePoints[i] ? `U+${hex(start)}` : `U+${hex(start)}-${hex(codePoints[i])}`);
  }
  return parts.join(',');
}

/** The @font-face rules of a stylesheet that name a self-hosted WOFF2 file, with what the page needs of each. */
function selfHostedFaces(css) {
  return [...css.matchAll(/@font-face\{([^}]*)\}/g)]
    .map((m) => {
      const prop = (name) => new RegExp(`(?:^|;)${name}:([^;]+)`).exec(m[1])?.[1].trim();
      const file = /url\((\/[\w./-]+\.woff2)\)/.exec(m[1])?.[1];
      const range = prop('unicode-range');
      if (!file || !range) return undefined;
      return {
        family: prop('font-family'),
        weight: prop('font-weight') ?? '400',
        style: prop('font-style') ?? 'normal',
        file,
        ranges: parseUnicodeRange(range),
      };
    })
    .filter((face) => face && !NOT_CARRIED.test(face.file));
}

/**
 * The text a page's markup draws: its text nodes (an SVG's <text> too: the logo's name) and the values
 * and placeholders of its fields; not scripts, nor an SVG's title or description.
 */
export function drawnText(root) {
  let text = GENERATED;
  const walk = (node) => {
    if (node.nodeType === 3) text += node.nodeValue;
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    const tag = node.nodeName?.toLowerCase();
    if (['script', 'style', 'template', 'title', 'desc'].includes(tag)) return;
    if (node.nodeType === 1) {
      if (node.getAttribute('placeholder')) text += node.getAttribute('placeholder');
      if (tag === 'input' && node.getAttribute('type') !== 'hidden' && node.getAttribute('value'))
        text += node.getAttribute('value');
    }
    for (const child of node.childNodes) walk(child);
  };
  walk(root);
  return text;
}

const subsets = new Map();
/** One face's subset as a data: URL (memoized: the same text on several pages is cut once). */
function subset(dist, file, codePoints) {
  const key = `${file}\0${codePoints.join(',')}`;
  let entry = subsets.get(key);
  if (!entry) {
    entry = subsetFont(readFileSync(join(dist, file)), String.fromCodePoint(...codePoints), {
      targetFormat: 'woff2',
    }).then((font) => `data:font/woff2;base64,${font.toString('base64')}`);
    subsets.set(key, entry);
  }
  return entry;
}

/**
 * The faces a page's text uses, cut to that text: the <style> text of their rules ('' when it uses
 * none), and the data: URLs they name, which the page also preloads: a face named by CSS alone is
 * decoded only once the first layout asks for it, and on a slow phone that ended after the first
 * frame, whose text then waited a frame more (font-display: block) — a later largest paint. Preloaded
 * (the parser reaches the link first), the face is ready when the layout asks; the same base64 text
 * twice costs the compressed page a few bytes. font-display: block, as the face is in the page itself:
 * its first frame is drawn in Poppins, never a fallback.
 */
export async function firstFrameFonts(dist, css, text) {
  const used = [...new Set([...text].map((c) => c.codePointAt(0)))].sort((a, b) => a - b);
  const rules = [];
  const urls = new Set();
  for (const face of selfHostedFaces(css)) {
    const codePoints = used.filter((cp) => face.ranges.some(([from, to]) => cp >= from && cp <= to));
    if (!codePoints.length) continue;
    const url = await subset(dist, face.file, codePoints);
    urls.add(url);
    rules.push(
      `@font-face{font-family:${face.family};font-style:${face.style};font-weight:${face.weight};font-display:block;src:url(${url})format("woff2");unicode-range:${unicodeRange(codePoints)}}`,
    );
  }
  return { style: rules.join(''), urls: [...urls] };
}
