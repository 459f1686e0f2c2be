import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderScreen } from '../../../components/testing';
import { ErrorNotice } from './notices';

describe('the meeting-not-found page', () => {
  it('makes joining another meeting the main action and home a quiet link, on a frame page card', async () => {
    await renderScreen(<ErrorNotice code="ERR_VIDEOCONFERENCE_NOT_FOUND" onRetry={() => undefined} />, {
      url: '/meet/zzz-zzzz-zzz',
      path: '/meet/:code',
    });
    // A heading, so without the catalogue sentence's full stop (the spec: "video conference not found").
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/^Video conference not found$/);
    expect(screen.getByRole('button', { name: 'Join' }).className).toContain('btn--primary');
    const home = screen.getByRole('link', { name: 'Go to the home page' });
    expect(home.className).toContain('btn--link');
    expect(home.className).not.toMatch(/btn--(primary|secondary)/);
    // One primary action on the card.
    expect(document.querySelectorAll('.btn--primary')).toHaveLength(1);
    expect(screen.getByTestId('meeting-error').className).toContain('meet-notice--page');
  });
});
