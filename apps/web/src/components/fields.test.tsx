import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { initI18n, changeLanguage } from '../lib/i18n';
import { PasswordField } from './password-field';
import { PageLoading } from './page-loading';
import { TextField } from './text-field';

describe('fields', () => {
  it('a fixed suffix is in the input’s description, with the error in the hint’s place (one message)', () => {
    const { rerender } = render(<TextField label="Teammate 1" suffix="@contoso.com" hint="A hint" error="Wrong" />);
    const input = screen.getByRole('textbox', { name: 'Teammate 1' });
    const described = () =>
      (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described()).toEqual(['@contoso.com', 'Wrong']);
    expect(screen.queryByText('A hint')).toBeNull();
    rerender(<TextField label="Teammate 1" suffix="@contoso.com" hint="A hint" />);
    expect(described()).toEqual(['@contoso.com', 'A hint']);
  });

  it('the show/hide toggle keeps one name and tells its state with aria-pressed', async () => {
    await initI18n('en');
    render(
      <Suspense fallback={null}>
        <PasswordField label="Password" />
      </Suspense>,
    );
    const toggle = await screen.findByRole('button', { name: 'Show password' });
    const input = screen.getByLabelText('Password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Show password' })).toBe(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(input.getAttribute('type')).toBe('text');
  });

  it('the loading status has a translated text for screen readers', async () => {
    await initI18n('en');
    await changeLanguage('pt');
    render(<PageLoading />);
    expect(screen.getByRole('status').textContent).toBe('Carregando…');
    await changeLanguage('en');
  });
});
