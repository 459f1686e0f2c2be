import { describe, expect, it } from 'vitest';
import { matchLanguage, rankAcceptLanguage } from './language.js';
import {
  ERRORS,
  TOOLBAR_BUTTONS,
  USER_COMPONENTS,
  USER_STEPS,
  apiPath,
  emailDomain,
  isEmailShape,
  normalizeEmail,
  isAddressLiteral,
  textLength,
  checkDisplayName,
  cleanDisplayName,
  DISPLAY_NAME_MAX_LENGTH,
} from './index.js';
import { SignupRequestSchema, ConfirmCodeRequestSchema, CompleteRegisterRequestSchema } from './index.js';

describe('e-mail shape (spec §5)', () => {
  it.each(['', 'ana@acme.com', 'a.b+c@sub.acme.co', "o'neil@acme.io", 'x@[192.168.0.1]'])('accepts %j', (v) => {
    expect(isEmailShape(v)).toBe(true);
  });
  it.each([
    'ana',
    'ana@',
    '@acme.com',
    'ana@acme',
    'ana@acme.c',
    'ana@acme.c0m',
    'a b@acme.com',
    'x@[999.1.1.1]',
    'ana@@acme.com',
  ])('rejects %j', (v) => {
    expect(isEmailShape(v)).toBe(false);
  });
  it('normalizes case, spaces and a trailing dot of the domain', () => {
    expect(normalizeEmail('  Ana@ACME.com. ')).toBe('ana@acme.com');
    expect(emailDomain('Ana@Sub.ACME.com.')).toBe('sub.acme.com');
    expect(normalizeEmail('a@x.com..')).toBe(normalizeEmail('a@x.com.'));
    expect(normalizeEmail('a@x.com...')).toBe('a@x.com');
  });
  it('counts text length in code points and tells address literals', () => {
    expect(textLength('😀'.repeat(64))).toBe(64);
    expect(isAddressLiteral('u@[1.2.3.4]')).toBe(true);
    expect(isAddressLiteral('u@acme.com')).toBe(false);
  });
});

describe('constants', () => {
  it('has the spec step totals: 4 for sign-up steps, 3 for recovery, none for login', () => {
    expect(USER_COMPONENTS).toHaveLength(8);
    expect(USER_STEPS.signup?.total).toBe(4);
    expect(USER_STEPS['check-token']?.total).toBe(4);
    expect(USER_STEPS.welcome?.total).toBe(4);
    expect(USER_STEPS['add-teammates']?.total).toBe(4);
    expect(USER_STEPS['recovery-password']?.total).toBe(3);
    expect(USER_STEPS['check-token-recovery']?.total).toBe(3);
    expect(USER_STEPS['update-password']?.total).toBe(3);
    expect(USER_STEPS.login).toBeNull();
  });
  it('offers 26 toolbar buttons including the ones the spec names', () => {
    expect(new Set(TOOLBAR_BUTTONS).size).toBe(26);
    for (const b of [
      'camera',
      'chat',
      'desktop',
      'hangup',
      'microphone',
      'recording',
      'settings',
      'tileview',
      'whiteboard',
    ]) {
      expect(TOOLBAR_BUTTONS).toContain(b);
    }
  });
  it('keeps the catalogue texts of spec §8', () => {
    expect(ERRORS.INVALID_TOKEN.message).toBe('Invalid token');
    expect(ERRORS.ERR_MAX_TRIES_EXCEEDED.message).toBe('Max number of tries exceeded.');
    expect(ERRORS.ERR_EMAIL_IN_USE.message).toBe('Email address already in use!');
    expect(ERRORS.ERR_PERSONAL_EMAIL_NOT_ALLOWED.message).toBe('No personal email allowed address without invite!');
    expect(ERRORS.ERR_INVITE_NOT_VALID.message).toBe('Invite is not valid');
    for (const { status } of Object.values(ERRORS)) expect(status).toBeGreaterThanOrEqual(400);
  });
});

describe('paths and schemas', () => {
  it('fills and encodes path parameters', () => {
    expect(apiPath('/file/:fileId/validating_link', { fileId: 'a b/c' })).toBe('/file/a%20b%2Fc/validating_link');
  });
  it('accepts only 6-digit codes', () => {
    expect(ConfirmCodeRequestSchema.safeParse({ token: '123456', email: 'a@acme.com' }).success).toBe(true);
    expect(ConfirmCodeRequestSchema.safeParse({ token: '12345a', email: 'a@acme.com' }).success).toBe(false);
    expect(ConfirmCodeRequestSchema.safeParse({ token: '1234567', email: 'a@acme.com' }).success).toBe(false);
  });
  it('requires accepted terms version 1 to complete a registration', () => {
    const base = { first_name: 'A', last_name: 'B', password: 'secret1', password_confirmation: 'secret1' };
    expect(CompleteRegisterRequestSchema.safeParse({ ...base, accepted_terms: { version: 1 } }).success).toBe(true);
    expect(CompleteRegisterRequestSchema.safeParse({ ...base, accepted_terms: { version: 2 } }).success).toBe(false);
    expect(SignupRequestSchema.safeParse({ email: 'x@acme.com', invite_token: 'abc' }).success).toBe(true);
  });
});

describe('display names: one rule for users, guests, invites, meetings and file names', () => {
  it.each([
    ['Ada', 'Ada'],
    ['  Ada   Lovelace ', 'Ada Lovelace'],
    ['Zoe\u0308', 'Zo\u00eb'], // NFC
    ['क्\u200dष', 'क्\u200dष'], // a joiner after a virama shapes a Devanagari conjunct
    ["O'Brien-Smith 😀", "O'Brien-Smith 😀"],
    // Invisible characters that shape what is seen stay:
    ['Ana \u2764\ufe0f', 'Ana \u2764\ufe0f'], // emoji presentation selector after an emoji
    ['Dev \u{1F469}\u{1F3FD}\u200d\u{1F4BB}', 'Dev \u{1F469}\u{1F3FD}\u200d\u{1F4BB}'], // emoji ZWJ sequence
    ['\u845b\u{E0100}\u98fe', '\u845b\u{E0100}\u98fe'], // ideographic variation selector (a Japanese name)
    ['\u1833\u180b\u1820', '\u1833\u180b\u1820'], // Mongolian free variation selector
    ['\u0939\u093f\u0902\u0926\u0940', '\u0939\u093f\u0902\u0926\u0940'], // Hindi
    ['\u05d3\u05d5\u05d3 \u0645\u062d\u0645\u062f', '\u05d3\u05d5\u05d3 \u0645\u062d\u0645\u062f'], // right-to-left scripts
    ['Ada\u00a0\u3000Lovelace', 'Ada Lovelace'], // other spaces become one space
  ])('accepts %j as %j', (raw, value) => {
    expect(checkDisplayName(raw)).toEqual({ ok: true, value });
  });
  it.each([
    ['right-to-left override U+202E', 'Ada\u202egpj.exe'],
    ['left-to-right isolate U+2066', 'a\u2066b'],
    ['pop directional isolate U+2069', 'a\u2069b'],
    ['C1 next line U+0085', 'Ada\u0085Bcc: x'],
    ['line separator U+2028', 'Ada\u2028Lovelace'],
    ['paragraph separator U+2029', 'Ada\u2029Lovelace'],
    ['zero-width space U+200B', 'Ad\u200ba'],
    ['zero-width joiner not after a mark', 'a\u200db'],
    ['line feed', 'Ada\nBcc: evil@example.com'],
    ['tab', 'Ada\tLovelace'],
    ['NUL', 'Ada\u0000'],
    ['byte order mark', '\ufeffAda'],
    ['private use', 'Ada\ue000'],
    // Every class of invisible character, alone (a name that looks empty) and inside a name.
    ['left-to-right override U+202D', 'a\u202db'],
    ['right-to-left embedding U+202B', 'a\u202bb'],
    ['first strong isolate U+2068', 'a\u2068b'],
    ['Arabic letter mark U+061C', 'a\u061cb'],
    ['left-to-right mark U+200E', 'a\u200eb'],
    ['word joiner U+2060', 'Ad\u2060a'],
    ['invisible separator U+2063', 'Ad\u2063a'],
    ['zero-width non-joiner not after a mark', 'a\u200cb'],
    ['soft hyphen', 'Ada\u00adLovelace'],
    ['Hangul filler U+3164 alone', '\u3164'],
    ['Hangul filler U+3164', 'Ada\u3164'],
    ['Hangul choseong filler U+115F', '\u115f'],
    ['Hangul jungseong filler U+1160', '\u1160'],
    ['halfwidth Hangul filler U+FFA0', '\uffa0'],
    ['Braille pattern blank U+2800 alone', '\u2800'],
    ['Braille pattern blank U+2800', 'Ada\u2800Lovelace'],
    ['combining grapheme joiner U+034F', 'Ad\u034fa'],
    ['variation selector after a letter', 'Ada\ufe0f'],
    ['Mongolian vowel separator U+180E', 'a\u180eb'],
    ['tag character', 'Ada\u{E0041}'],
    ['escape', 'Ada\u001b[31m'],
    ['DEL', 'Ada\u007f'],
  ])('refuses a name with a %s', (_what, raw) => {
    expect(checkDisplayName(raw)).toEqual({ ok: false, problem: 'forbidden_character' });
  });
  it('refuses empty and over-long names, counting code points', () => {
    expect(checkDisplayName('   ')).toEqual({ ok: false, problem: 'empty' });
    expect(checkDisplayName('😀'.repeat(DISPLAY_NAME_MAX_LENGTH)).ok).toBe(true);
    expect(checkDisplayName('a'.repeat(DISPLAY_NAME_MAX_LENGTH + 1))).toEqual({ ok: false, problem: 'too_long' });
  });
  it('cleaning removes what checking refuses, and shortens', () => {
    expect(cleanDisplayName('\u202eAda\u0085 \u2028Love\u200blace ')).toBe('Ada Lovelace');
    expect(cleanDisplayName('x'.repeat(300), 10)).toBe('x'.repeat(10));
    for (const raw of ['a\u202eb', 'a\u0085b', 'a\u2028b', ' x ']) {
      expect(checkDisplayName(cleanDisplayName(raw)).ok).toBe(true);
    }
  });
});

describe('one language choice for the web and the server (spec §1)', () => {
  it('takes the first preference we have, by its primary subtag, else English', () => {
    expect(matchLanguage(['de-DE', 'pt-BR', 'en'])).toBe('pt');
    expect(matchLanguage(['es-419'])).toBe('es');
    expect(matchLanguage(['HI-in'])).toBe('hi');
    expect(matchLanguage(['de', 'fr'])).toBe('en');
    expect(matchLanguage([])).toBe('en');
  });

  it('ranks Accept-Language by q, then by order, dropping q=0', () => {
    expect(rankAcceptLanguage('de-DE, pt-BR;q=0.8, it;q=0.9')).toEqual(['de-DE', 'it', 'pt-BR']);
    expect(rankAcceptLanguage('it;q=0, es;q=0.5')).toEqual(['es']);
    expect(rankAcceptLanguage(undefined)).toEqual([]);
    expect(matchLanguage(rankAcceptLanguage('de-DE, pt-BR;q=0.8, it;q=0.9'))).toBe('it');
  });
});

describe('session methods', () => {
  it('names the stored methods of the one list and leaves out what it does not name', async () => {
    const { SESSION_METHODS, sessionMethodOf } = await import('./index.js');
    for (const method of SESSION_METHODS) expect(sessionMethodOf(method)).toBe(method);
    expect([sessionMethodOf('saml-legacy'), sessionMethodOf(''), sessionMethodOf(null)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
