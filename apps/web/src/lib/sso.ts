import { useEffect, useState } from 'react';
import { ACCOUNT_API, API_PREFIX, emailDomain, isEmailShape, type SsoDiscoverResponse } from '@suite/contract/core';
import { apiRequest, lazySchema } from './api-client';

export type SsoAvailability = SsoDiscoverResponse['sso'];

/** Where a sign-in with the company's identity provider starts (the server redirects to it). */
export const ssoStartUrl = (email: string) =>
  `${API_PREFIX}${ACCOUNT_API.ssoStart}?email=${encodeURIComponent(email.trim())}`;

/** Answers per domain, for the page's life: discovery depends on the domain only. */
const known = new Map<string, Promise<SsoAvailability>>();

/** Whether the address's domain signs in with single sign-on (one call per domain for the page's life). */
export function discoverSso(email: string): Promise<SsoAvailability> {
  const domain = emailDomain(email);
  let answer = known.get(domain);
  if (!answer) {
    answer = apiRequest({
      method: 'POST',
      path: ACCOUNT_API.ssoDiscover,
      body: { email },
      schema: lazySchema('SsoDiscoverResponseSchema'),
    }).then(
      (r) => r.sso,
      () => {
        known.delete(domain);
        return 'none' as const;
      },
    );
    known.set(domain, answer);
  }
  return answer;
}

/**
 * Home-realm discovery: whether the typed address's domain signs in with single sign-on ('required':
 * only that way). One small call per domain once the address looks complete (after a short pause in
 * typing); it says nothing about whether the address has an account.
 */
export function useSsoDiscovery(address: string): SsoAvailability {
  const [result, setResult] = useState<{ domain: string; sso: SsoAvailability } | null>(null);
  const email = address.trim().toLowerCase();
  const shaped = isEmailShape(email);
  const domain = shaped ? emailDomain(email) : '';
  useEffect(() => {
    if (!shaped) return;
    let live = true;
    const timer = setTimeout(() => {
      void discoverSso(email).then((sso) => {
        if (live) setResult({ domain, sso });
      });
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [email, shaped, domain]);
  return shaped && result?.domain === domain ? result.sso : 'none';
}
