import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderScreen } from '../components/testing';
import { PageFrame } from './page-frame';

afterEach(cleanup);

describe('page frame', () => {
  it('shows the logo linking to the main app and a footer with the year and the app title', async () => {
    await renderScreen(<PageFrame />, {
      url: '/x',
      path: '/x',
      config: { appTitle: 'Acme Mail', mainAppUrl: 'https://mail.acme.test/app' },
    });
    const header = await screen.findByRole('banner');
    expect(header.querySelector('a')?.getAttribute('href')).toBe('https://mail.acme.test/app');
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain(String(new Date().getFullYear()));
    expect(footer.textContent).toContain('Acme Mail');
  });

  it('hides the header and the footer each by its own setting', async () => {
    await renderScreen(<PageFrame />, { url: '/x', path: '/x', config: { hideHeader: true } });
    expect(await screen.findByRole('contentinfo')).toBeVisible();
    expect(screen.queryByRole('banner')).toBeNull();
    cleanup();
    await renderScreen(<PageFrame />, { url: '/x', path: '/x', config: { hideFooter: true } });
    expect(await screen.findByRole('banner')).toBeVisible();
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});
