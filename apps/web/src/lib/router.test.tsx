import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, matchRoutes, Link, Outlet, RouterProvider, useParams, type RouteObject } from './router';

function Params() {
  return <p>{JSON.stringify(useParams())}</p>;
}

const table: RouteObject[] = [
  {
    errorElement: <p>route error</p>,
    children: [
      { path: '/', element: <p>root</p> },
      { path: '/meet/:roomName', element: <Params /> },
      {
        element: (
          <main>
            frame <Outlet />
          </main>
        ),
        children: [
          { path: '/user/:componentUrl', element: <Params /> },
          { path: '/user/login', element: <Link to="/user/signup">to sign-up</Link> },
          { path: '/broken', lazy: () => Promise.reject(new Error('chunk failed')) },
          { path: '/later', lazy: () => Promise.resolve({ Component: () => <h1>later</h1> }) },
          { path: '*', element: <p>not found</p> },
        ],
      },
    ],
  },
];

describe('router', () => {
  it('ranks static segments over dynamic ones over the splat, ignoring case and a trailing slash', () => {
    const leaf = (path: string) => matchRoutes(table, path)?.at(-1)?.route;
    expect(leaf('/user/login')?.path).toBe('/user/login');
    expect(leaf('/USER/Login/')?.path).toBe('/user/login');
    expect(leaf('/user/signup')?.path).toBe('/user/:componentUrl');
    expect(leaf('/user/signup/extra')?.path).toBe('*');
    expect(matchRoutes(table, '/meet/a%20b')?.at(-1)?.params).toEqual({ roomName: 'a b' });
  });

  it('renders nested layouts, follows links in a transition and goes back', async () => {
    const router = createMemoryRouter(table, { initialEntries: ['/user/login'] });
    render(<RouterProvider router={router} />);
    (await screen.findByRole('link', { name: 'to sign-up' })).click();
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/signup'));
    expect(await screen.findByText('{"componentUrl":"signup"}')).toBeTruthy();
    expect(screen.getByRole('main').textContent).toContain('frame');
    expect(router.state.location.key).not.toBe('default');
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(router.state.location.key).toBe('default');
  });

  it('loads a lazy route before showing it, and shows the error element when its code fails to load', async () => {
    const router = createMemoryRouter(table, { initialEntries: ['/'] });
    render(<RouterProvider router={router} />);
    await screen.findByText('root');
    await act(() => router.navigate('/later'));
    expect(await screen.findByRole('heading', { name: 'later' })).toBeTruthy();
    await act(() => router.navigate('/broken'));
    expect(await screen.findByText('route error')).toBeTruthy();
    await act(() => router.navigate('/'));
    expect(await screen.findByText('root')).toBeTruthy();
  });
});
