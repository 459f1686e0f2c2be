import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { AdminSsoResponse } from '@suite/contract';
import { fakeSessionToken, renderScreen, serveApiForTest, type Answer } from '../../../components/testing';
import { SsoSection } from './sso-section';

const API_URL = 'https://suite.example/api';
const DAY = 86_400_000;

const SAML: AdminSsoResponse = {
  domain: 'contoso.com',
  proven: true,
  sso_only: false,
  connection: {
    protocol: 'saml',
    domains: ['contoso.com', 'contoso.org'],
    issuer: null,
    client_id: null,
    entity_id: 'https://idp.contoso.com/saml',
    sso_url: 'https://idp.contoso.com/sso',
    metadata_url: null,
    metadata_read_at: null,
    certificates: [
      { fingerprint: 'a'.repeat(64), expires_at: new Date(Date.now() + 10 * DAY).toISOString(), warning: 'expiring' },
    ],
    sha1: 'refuse',
    logout_url: null,
    idp_initiated: true,
    awaiting_test: false,
    updated_at: new Date().toISOString(),
  },
  failures: [
    {
      at: new Date().toISOString(),
      step: 'saml',
      reason: 'expired',
      email: 'ada@contoso.com',
      detail: 'assertion replayed',
      ip: '203.0.113.7',
    },
  ],
  ours: {
    saml_entity_id: `${API_URL}/sso/saml/metadata`,
    saml_metadata_url: `${API_URL}/sso/saml/metadata`,
    saml_acs_url: `${API_URL}/sso/saml/acs`,
    saml_slo_url: `${API_URL}/sso/saml/slo`,
    oidc_redirect_uri: null,
    oidc_backchannel_logout_uri: null,
    oidc_post_logout_redirect_uri: 'https://suite.example/user/login',
    start_url: `${API_URL}/sso/start?domain=contoso.com`,
  },
};

async function open(answer: (req: IncomingMessage) => Answer) {
  localStorage.setItem('authorization', fakeSessionToken());
  const server = await serveApiForTest(answer);
  await renderScreen(<SsoSection domain="contoso.com" />, { url: '/app/admin/sso', path: '/app/admin/sso' });
  return server;
}

describe('the console’s single sign-on page', () => {
  it('shows the connection, the certificate that ends soon, the failures with their reasons and our addresses', async () => {
    const api = await open(() => ({ status: 200, body: SAML }));
    expect(await screen.findByText('https://idp.contoso.com/saml')).toBeVisible();
    expect(screen.getByText('SAML 2.0', { selector: 'dd' })).toBeVisible();
    expect(screen.getByText('contoso.com, contoso.org')).toBeVisible();
    expect(screen.getByText('Refused (SHA-256 or stronger required)')).toBeVisible();
    expect(screen.getByText('None (signing out ends only our session)')).toBeVisible();
    expect(screen.getByText('Allowed, after “Continue as …?”')).toBeVisible();
    expect(screen.getByText('Ends soon')).toBeVisible();
    const failures = within(screen.getByTestId('sso-failures')).getAllByRole('listitem');
    expect(failures).toHaveLength(1);
    expect(within(failures[0]!).getByText('This sign-in link has expired')).toBeVisible();
    expect(within(failures[0]!).getByText('assertion replayed')).toBeVisible();
    expect(failures[0]!.textContent).toContain('ada@contoso.com · 203.0.113.7');
    expect(screen.getByText(`${API_URL}/sso/saml/acs`)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Copy Assertion consumer service (HTTP-POST)' })).toBeVisible();
    // No OIDC connection: its redirect URI names a connection that does not exist yet.
    expect(
      screen.getByText('The redirect URI names the connection: it is shown once the connection exists.'),
    ).toBeVisible();
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/admin/domains/contoso.com/sso']);
    expect(api.requests[0]?.authorization).toMatch(/^Bearer /);
  });

  it(
    'Test sign-in: opens the provider in a window, shows each check’s verdict once the result is in',
    { timeout: 15_000 },
    async () => {
      const at = () => new Date(Date.now() + 5000).toISOString();
      let tested = false;
      const api = await open((req) => {
        if (req.method === 'POST') {
          tested = true;
          return { status: 200, body: { url: 'about:blank' } };
        }
        if (req.url?.endsWith('/sso/test'))
          return {
            status: 200,
            body: {
              result: tested
                ? {
                    at: at(),
                    protocol: 'saml',
                    passed: false,
                    email: 'eve@elsewhere.test',
                    received: 'attributes: email, givenName, sn',
                    checks: [
                      { check: 'answer', ok: true, reason: null, detail: 'https://idp.contoso.com/saml' },
                      { check: 'address', ok: false, reason: 'foreign', detail: 'address of elsewhere.test' },
                    ],
                  }
                : null,
            },
          };
        return { status: 200, body: SAML };
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Test sign-in' }));
      const result = await screen.findByTestId('sso-test-result', {}, { timeout: 8000 });
      expect(
        within(result).getByText('Failed: a person signing in like this would be refused. See the check that failed.'),
      ).toBeVisible();
      const checks = within(result)
        .getAllByRole('listitem')
        .map((li) => li.textContent);
      expect(checks).toEqual([
        'Passed · The provider’s answer (signature, issuer, audience, time) https://idp.contoso.com/saml',
        'Failed · The email address (present, in this domain) address of elsewhere.test',
      ]);
      expect(within(result).getByText('eve@elsewhere.test')).toBeVisible();
      expect(api.requests.map((r) => `${r.method} ${r.url}`)).toContain('POST /api/admin/domains/contoso.com/sso/test');
    },
  );

  it('sets up an OIDC connection on a proven domain: saved off, shown as waiting for its test', async () => {
    const api = await open((req) =>
      req.method === 'PUT'
        ? {
            status: 200,
            body: {
              ...SAML,
              connection: {
                ...SAML.connection!,
                protocol: 'oidc',
                issuer: 'https://login.contoso.com',
                client_id: 'suite',
                entity_id: null,
                certificates: [],
                awaiting_test: true,
              },
            },
          }
        : { status: 200, body: { ...SAML, connection: null, failures: [] } },
    );
    fireEvent.click(await screen.findByRole('radio', { name: 'OpenID Connect' }));
    fireEvent.change(screen.getByLabelText('Issuer'), { target: { value: 'https://login.contoso.com' } });
    fireEvent.change(screen.getByLabelText('Client ID'), { target: { value: 'suite' } });
    fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 's3cret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the connection' }));
    expect(await screen.findByText('Off until a test sign-in passes')).toBeVisible();
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.url).toBe('/api/admin/domains/contoso.com/sso');
    expect(JSON.parse(put!.body)).toEqual({
      protocol: 'oidc',
      issuer: 'https://login.contoso.com',
      client_id: 'suite',
      client_secret: 's3cret',
    });
    expect(screen.getByRole('button', { name: 'Test sign-in' })).toBeVisible();
  });

  it('offers no set-up before the domain is proven', async () => {
    await open(() => ({ status: 200, body: { ...SAML, proven: false, connection: null } }));
    expect(
      await screen.findByText('To set up single sign\u2011on here, first prove the domain with its DNS record.'),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save the connection' })).toBeNull();
  });

  it('says when there is no connection and no failure', async () => {
    await open(() => ({ status: 200, body: { ...SAML, connection: null, failures: [] } }));
    expect(await screen.findByTestId('sso-none')).toBeVisible();
    expect(screen.getByText('No failed single sign\u2011on sign-in lately.')).toBeVisible();
  });

  it('a refused load says why and asks again', async () => {
    let calls = 0;
    await open(() =>
      ++calls === 1
        ? { status: 404, body: { error_code: 'ERR_NOT_FOUND', message: 'Not found.' } }
        : { status: 200, body: SAML },
    );
    expect(await screen.findByText('Not found.')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('https://idp.contoso.com/saml')).toBeVisible();
  });
});
