import { describe, expect, it } from 'vitest';
import { meetingCodeFrom } from './meeting-code';

describe('meetingCodeFrom', () => {
  it('reads a code typed with or without dashes, in any case', () => {
    expect(meetingCodeFrom('abc-defg-hij')).toBe('abc-defg-hij');
    expect(meetingCodeFrom('  ABCDEFGHIJ ')).toBe('abc-defg-hij');
    expect(meetingCodeFrom('abc defg hij')).toBe('abc-defg-hij');
  });
  it('reads the code out of a meeting link', () => {
    expect(meetingCodeFrom('https://suite.example/meet/abc-defg-hij?jwt=x#y')).toBe('abc-defg-hij');
    expect(meetingCodeFrom('suite.example/meet/abc-defg-hij')).toBe('abc-defg-hij');
  });
  it('refuses what is neither', () => {
    expect(meetingCodeFrom('')).toBeNull();
    expect(meetingCodeFrom('abc-defg')).toBeNull();
    expect(meetingCodeFrom('https://suite.example/user/login')).toBeNull();
    expect(meetingCodeFrom('abc-defg-hi1')).toBeNull();
  });
});
