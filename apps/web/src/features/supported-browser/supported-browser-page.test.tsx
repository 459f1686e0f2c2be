import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../components/testing';
import SupportedBrowserPage from './supported-browser-page';

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

describe('the supported-browser page', () => {
  it('does not offer the browser in use as an alternative to itself', async () => {
    Object.defineProperty(window.navigator, 'userAgent', { value: CHROME_ON_WINDOWS, configurable: true });
    await renderScreen(<SupportedBrowserPage />, { url: '/supported-browser', path: '/supported-browser' });
    expect(await screen.findByRole('heading', { name: 'Your browser is supported' })).toBeVisible();
    expect(screen.getByTestId('browser-verdict')).toHaveTextContent(/^Google Chrome 130 works with/);
    const list = screen.getByRole('list', { name: 'Suggested browsers' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Mozilla Firefox']);
  });
});
