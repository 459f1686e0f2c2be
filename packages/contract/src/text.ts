/**
 * Length in Unicode code points, the unit of the spec's password rule (6–64 characters): an emoji
 * counts once, as the user sees it, not as two UTF-16 units. Server and web count with this alone.
 */
export function textLength(value: string): number {
  return [...value].length;
}

/** Longest display name (first name, last name, guest name, meeting name), in code points. */
export const DISPLAY_NAME_MAX_LENGTH = 100;

/**
 * Characters no name may hold (after the NFC normalisation), because they are invisible, reorder what
 * other people read or garble a mail subject:
 * - controls (Cc: C0, DEL, C1 such as U+0085), surrogates (Cs), private use (Co), the line and paragraph
 *   separators U+2028/U+2029;
 * - format characters (Cf): bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069, U+061C),
 *   zero-width space and joiners, word joiner, soft hyphen, BOM, tags…;
 * - every other default-ignorable code point (Unicode's Default_Ignorable_Code_Point: the Hangul fillers
 *   U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner, variation selectors…);
 * - U+2800 BRAILLE PATTERN BLANK, which renders as a blank without being a space.
 * Allowed where they shape what is seen (RFC 5892 CONTEXTJ, PRECIS nickname profile RFC 8266, UTS #51):
 * a zero width (non-)joiner right after a combining mark (a virama in Devanagari: a conjunct), a zero
 * width joiner inside an emoji sequence, an emoji presentation selector after an emoji, an ideographic
 * variation selector after an ideograph (Japanese names), a Mongolian free variation selector after a
 * Mongolian letter.
 */
const SHAPING = [
  String.raw`(?<=\p{M})[\u200c\u200d]`,
  String.raw`(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200d(?=\p{Extended_Pictographic})`,
  String.raw`(?<=\p{Extended_Pictographic})[\uFE0E\uFE0F]`,
  String.raw`(?<=\p{Ideographic})[\u{E0100}-\u{E01EF}]`,
  String.raw`(?<=\p{Script=Mongolian})[\u180B-\u180D\u180F]`,
];
const FORBIDDEN_IN_NAMES = new RegExp(
  `${SHAPING.map((allowed) => `(?!${allowed})`).join('')}` +
    String.raw`[\p{Cc}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]`,
  'gu',
);

export type DisplayNameCheck =
  { ok: true; value: string } | { ok: false; problem: 'empty' | 'too_long' | 'forbidden_character' };

/**
 * The one display-name rule of server and web: NFC, trimmed, runs of spaces made one, not empty, at most
 * `max` code points, no forbidden character (above). `value` is what is stored and shown.
 */
export function checkDisplayName(raw: string, max: number = DISPLAY_NAME_MAX_LENGTH): DisplayNameCheck {
  const normalized = raw.normalize('NFC');
  if (new RegExp(FORBIDDEN_IN_NAMES.source, 'u').test(normalized)) return { ok: false, problem: 'forbidden_character' };
  const value = normalized.trim().replace(/\s+/g, ' ');
  if (!value) return { ok: false, problem: 'empty' };
  if (textLength(value) > max) return { ok: false, problem: 'too_long' };
  return { ok: true, value };
}

/**
 * The same rule for a name we did not get typed (an uploaded file's name, a name stored before the
 * rule): forbidden characters are removed instead of refused, then trimmed and shortened to `max`.
 */
export function cleanDisplayName(raw: string, max: number = DISPLAY_NAME_MAX_LENGTH): string {
  const value = raw.normalize('NFC').replace(FORBIDDEN_IN_NAMES, '').trim().replace(/\s+/g, ' ');
  return [...value].slice(0, max).join('').trim();
}
