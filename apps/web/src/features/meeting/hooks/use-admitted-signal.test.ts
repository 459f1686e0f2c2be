import { describe, expect, it } from 'vitest';
import { admittedNow } from './use-admitted-signal';

describe('let in after waiting for the host', () => {
  it('is the step from waiting to entering (or straight to the room)', () => {
    expect(admittedNow('waiting', 'entering')).toBe(true);
    expect(admittedNow('waiting', 'ready')).toBe(true);
  });

  it('is not a join without waiting, a first answer, or still waiting', () => {
    expect(admittedNow('connecting', 'entering')).toBe(false);
    expect(admittedNow(null, 'entering')).toBe(false);
    expect(admittedNow('waiting', 'waiting')).toBe(false);
    expect(admittedNow('waiting', 'failed')).toBe(false);
  });
});
