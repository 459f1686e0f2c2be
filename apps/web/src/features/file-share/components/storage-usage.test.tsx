import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderScreen } from '../../../components/testing';
import { StorageUsage } from './storage-usage';

afterEach(cleanup);

describe('storage usage on the signed-in home', () => {
  it('says how much of the quota is used, and the meter is named by that text', async () => {
    await renderScreen(<StorageUsage usedBytes={1.2 * 1024 * 1024} quotaBytes={1024 * 1024 * 1024} />, {
      url: '/',
      path: '/',
    });
    const meter = await screen.findByRole('meter', { name: '1.2 MB of 1 GB used' });
    expect(meter.getAttribute('value')).toBe(String(1.2 * 1024 * 1024));
    expect(meter.getAttribute('max')).toBe(String(1024 * 1024 * 1024));
    expect(screen.getByText('1.2 MB of 1 GB used')).toBeVisible();
  });
});
