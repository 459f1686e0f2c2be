import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { AccessRequestReason } from '@suite/contract';
import { useTranslation } from '../../lib/i18n-react';
import { SSO_ERROR_REASONS, type SsoErrorReason } from '@suite/contract/core';
import { userPath } from '../../lib/paths';
import { carriedAddress } from '../../lib/carried-address';
import { discoverSso } from '../../lib/sso';
import { useDocumentTitle } from '../../lib/use-document-title';

const AskForAccess = lazy(() => import('../../components/ask-for-access'));

/** The reasons whose text says "contact your domain administrator", and what the request says the person met. */
const ASK_REASON: Partial<Record<SsoErrorReason | 'none', AccessRequestReason>> = {
  inactive: 'domain_inactive',
  'not-configured': 'sso_unavailable',
  'other-person': 'sso_unavailable',
  none: 'sso_unavailable',
};

/**
 * The address the sign-in started with (carried from the login form) when its domain also takes a
 * password: then a provider that did not answer is no dead end. Asked after the first paint, only for
 * that reason; nothing while unknown (no address carried, or single sign-on only).
 */
function usePasswordAllowed(reason: SsoErrorReason | undefined): string | null {
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    if (reason !== 'unavailable') return;
    const carried = carriedAddress.get();
    if (!carried) return;
    let live = true;
    void discoverSso(carried).then((sso) => live && sso === 'available' && setAddress(carried));
    return () => {
      live = false;
    };
  }, [reason]);
  return address;
}

/**
 * `/login-error-sso?reason=…`: a single-sign-on sign-in that failed, with a title and a text that say
 * what happened and what to do (the server's reason; the generic text for none), and a way back. Where
 * the text says to contact the domain administrator, "Ask for access" does it (after the first paint: the
 * prerendered page stays as it is).
 */
export default function SsoErrorPage() {
  const { t } = useTranslation('ssoError');
  const given = new URLSearchParams(window.location.search).get('reason');
  const reason = SSO_ERROR_REASONS.find((r) => r === given) as SsoErrorReason | undefined;
  const title = reason ? t(`reasons.${reason}.title`) : t('title');
  useDocumentTitle(title);
  const ask = ASK_REASON[reason ?? 'none'];
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const password = usePasswordAllowed(reason);
  return (
    <div className="card simple-page stack">
      <h1>{title}</h1>
      <p>{reason ? t(`reasons.${reason}.text`) : t('text')}</p>
      <Link className="btn btn--primary btn--block" to={userPath('login')}>
        {reason === 'unavailable' || reason === 'expired' || reason === 'invalid' || reason === 'cancelled'
          ? t('retry')
          : reason === 'idp-initiated'
            ? t('startHere')
            : t('toLogin')}
      </Link>
      {password ? (
        <p className="center-text" data-testid="sso-password-instead">
          <Link to={userPath('login')}>{t('passwordInstead')}</Link>
        </p>
      ) : null}
      {ask && mounted ? (
        <Suspense fallback={null}>
          <AskForAccess reason={ask} />
        </Suspense>
      ) : null}
    </div>
  );
}
