import type { Language } from '@suite/contract';

/** Where the mails' logo is served (emails/assets.ts), under PUBLIC_URL. */
export const EMAIL_LOGO_PATH = '/email/logo.png';
/** Poppins for the clients that load web fonts (Apple Mail, iOS, Thunderbird, Outlook for Mac), from @fontsource. */
export const EMAIL_FONTS_PATH = '/email/fonts';
const LATIN_RANGE =
  'U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD';
const DEVANAGARI_RANGE =
  'U+0900-097F, U+1CD0-1CF9, U+200C-200D, U+20A8, U+20B9, U+20F0, U+25CC, U+A830-A839, U+A8E0-A8FF';
export const EMAIL_FONTS = (['latin', 'devanagari'] as const).flatMap((subset) =>
  ([400, 600] as const).map((weight) => ({
    file: `poppins-${subset}-${weight}-normal.woff2`,
    weight,
    range: subset === 'latin' ? LATIN_RANGE : DEVANAGARI_RANGE,
  })),
);

/**
 * Everything one mail says, in its language: the HTML layout (layout.tsx) and the plain-text part
 * (mailText) are both made from this, so they carry the same content.
 */
export interface MailContent {
  language: Language;
  /** BCP 47 tag for `<html lang>`. */
  lang: string;
  dir: 'ltr' | 'rtl';
  appTitle: string;
  publicUrl: string;
  logoUrl: string;
  subject: string;
  /** Hidden preview line shown after the subject in inbox lists; never the code. */
  preview: string;
  heading: string;
  intro: string;
  /** Code mails: the code, shown large in a box. */
  code?: string;
  /** A resent code: says the earlier code no longer works (above the intro). */
  replaces?: string;
  /** A resent code: when it was asked for and from which browser (above `why`). */
  requested?: string;
  /** Invitation: the button, and the same address written out below it. */
  action?: { label: string; url: string; fallback: string };
  validity: string;
  why: string;
  ignore: string;
  footer: string;
  footerAuto: string;
}
