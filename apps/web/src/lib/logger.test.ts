import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureLogger, isLoggerActive, logTags, logger } from './logger';

afterEach(() => vi.restoreAllMocks());

describe('client logger', () => {
  it('is active only in alpha and production', () => {
    for (const [environment, active] of [
      ['development', false],
      ['test', false],
      ['alpha', true],
      ['production', true],
    ] as const) {
      configureLogger({ environment, errorReportingDsn: null });
      expect(isLoggerActive()).toBe(active);
    }
  });

  it('tags lines with the acting profile and the guest id', () => {
    localStorage.setItem('acting_profile', JSON.stringify({ _id: 'p-1', info: { email: 'a@b.co' } }));
    localStorage.setItem('guestId', 'g-9');
    expect(logTags()).toEqual({ acting_profile: 'p-1', guestId: 'g-9' });
    configureLogger({ environment: 'production', errorReportingDsn: null });
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    logger.info('hello');
    expect(info.mock.calls[0]?.[1]).toMatchObject({ message: 'hello', acting_profile: 'p-1', guestId: 'g-9' });
  });

  it('sends error reports only when a DSN is configured', () => {
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    configureLogger({ environment: 'production', errorReportingDsn: null });
    logger.error('boom');
    expect(beacon).not.toHaveBeenCalled();
    configureLogger({ environment: 'production', errorReportingDsn: 'https://errors.example.com/api/1' });
    logger.error('boom');
    expect(beacon).toHaveBeenCalledWith('https://errors.example.com/api/1', expect.stringContaining('boom'));
    configureLogger({ environment: 'development', errorReportingDsn: 'https://errors.example.com/api/1' });
    logger.error('silent');
    expect(beacon).toHaveBeenCalledTimes(1);
  });
});
