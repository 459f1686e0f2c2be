import { describe, expect, it } from 'vitest';
import { checkTeammates, teammateAddress, teammateLocal, visibleFields } from './teammate-rules';

describe('teammate rules (spec §5)', () => {
  it('adds the fixed domain suffix, keeps a typed full address', () => {
    expect(teammateAddress(' grace ', 'contoso.com')).toBe('grace@contoso.com');
    expect(teammateAddress('alan@other.com', 'contoso.com')).toBe('alan@other.com');
  });

  it('flags invalid, duplicate and other-domain entries and ignores empty ones', () => {
    const { emails, problems } = checkTeammates(
      ['grace', 'Grace', 'bad name', 'alan@other.com', '', 'alan'],
      'contoso.com',
    );
    expect(problems).toEqual([null, 'duplicate', 'invalid', 'domain', null, null]);
    expect(emails).toEqual(['grace@contoso.com', 'alan@contoso.com']);
  });

  it('shows the next field once the previous one has 3 characters, up to 5', () => {
    expect(visibleFields(['', '', '', '', ''])).toBe(1);
    expect(visibleFields(['ab', '', '', '', ''])).toBe(1);
    expect(visibleFields(['abc', '', '', '', ''])).toBe(2);
    expect(visibleFields(['abc', 'def', 'ghi', 'jkl', 'mno'])).toBe(5);
    // A field that holds text stays even when an earlier one is shortened.
    expect(visibleFields(['a', 'def', '', '', ''])).toBe(2);
  });

  it('keeps a name only: a same-domain address is split, any other "@" is refused', () => {
    expect(teammateLocal('grace', 'contoso.com')).toEqual({ local: 'grace', refused: null });
    expect(teammateLocal('grace@', 'contoso.com')).toEqual({ local: 'grace', refused: 'at' });
    expect(teammateLocal('Grace.H@Contoso.com', 'contoso.com')).toEqual({ local: 'Grace.H', refused: null });
    expect(teammateLocal('grace@cont', 'contoso.com')).toEqual({ local: 'grace', refused: 'at' });
    expect(teammateLocal('bob@fabrikam.com', 'contoso.com')).toEqual({ local: 'bob@fabrikam.com', refused: 'domain' });
  });
});
