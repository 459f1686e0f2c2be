import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fakeSessionToken, renderScreen } from './testing';
import { HomeHeader } from './home-header';

describe('the signed-in header', () => {
  it('names every section in full; the phone bar shows short captions that fit a fifth of a 360px screen', async () => {
    localStorage.setItem('authorization', fakeSessionToken());
    await renderScreen(<HomeHeader current="meetings" adminPath="/app/admin" />, {
      url: '/app/meetings',
      path: '/app/meetings',
    });
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    const admin = within(nav).getByRole('link', { name: 'Administration' });
    const caption = admin.querySelector('.home-nav__caption');
    expect(caption).toHaveTextContent('Admin');
    expect(caption).toHaveAttribute('aria-hidden', 'true');
    // About nine letters of 12px Poppins fit the 64px a fifth of a phone's width leaves.
    for (const link of within(nav).getAllByRole('link')) {
      expect(link.querySelector('.home-nav__caption')?.textContent?.length ?? 99).toBeLessThanOrEqual(9);
    }
  });
});
