import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { fakeSessionToken, renderScreen, serveApi } from '../../components/testing';
import TeammatesForm from './teammates-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function open(email = 'ada@contoso.com') {
  server = await serveApi(() => ({ status: 200, body: { url: 'http://127.0.0.1/user/signup?inviteToken=t' } }));
  const user = { _id: 'u1', email, preferences: {}, profile_id: 'p1' };
  localStorage.setItem('authorization', fakeSessionToken(user));
  localStorage.setItem('user', JSON.stringify(user));
  localStorage.setItem('acting_profile', JSON.stringify({ _id: 'p1', type: 'PROFESSIONAL', info: { email } }));
  await renderScreen(<TeammatesForm />, { url: '/user/add-teammates' });
  return screen.findByRole('textbox', { name: 'Teammate 1' });
}

describe('add teammates screen', () => {
  it('an invalid address gets its own message on its field, and no invitation is sent', async () => {
    const first = await open();
    fireEvent.change(first, { target: { value: 'grace hopper' } });
    fireEvent.click(screen.getByRole('button', { name: 'Get started' }));
    const message = await screen.findByText('This is not a valid address.');
    expect(first.getAttribute('aria-invalid')).toBe('true');
    expect(first.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    // And the spec's sentence for the form, which points at the highlighted field.
    expect(await screen.findByText(/Some invalid email address was provided/)).toBeVisible();
    expect(document.activeElement).toBe(first);
    expect(server!.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('says how the fields come: up to five, a new one opening as one types', async () => {
    const first = await open();
    expect(screen.getByText(/Add up to 5 colleagues from/).textContent).toContain('a new field opens as you type');
    expect(screen.queryByRole('textbox', { name: 'Teammate 2' })).toBeNull();
    fireEvent.change(first, { target: { value: 'grace' } });
    expect(await screen.findByRole('textbox', { name: 'Teammate 2' })).toBeVisible();
  });

  it('the fixed @domain suffix is part of the field’s description', async () => {
    const first = await open();
    const ids = first.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(ids.map((id) => document.getElementById(id)?.textContent)).toContain('@contoso.com');
  });

  it('Get started, the one primary: with nothing typed it goes on to the app, sending nothing', async () => {
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Get started' }));
    await screen.findByText('elsewhere');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server!.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('a message naming a hyphenated domain keeps the domain whole (no line break after its hyphen)', async () => {
    const first = await open('ada@contoso-labs.com');
    fireEvent.change(first, { target: { value: 'bob@gmail.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Get started' }));
    const message = await screen.findByText(/^Only people with an/);
    const domain = message.querySelector('.domain');
    // One no-wrap piece with the real characters: a copy or a search finds "@contoso-labs.com" as typed.
    expect(domain?.textContent).toBe('@contoso-labs.com');
    expect(message.textContent).toBe('Only people with an @contoso-labs.com address can be invited here.');
  });
});
