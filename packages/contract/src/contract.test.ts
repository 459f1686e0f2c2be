import { describe, expect, it } from 'vitest';
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
