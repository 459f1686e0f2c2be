import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ACCOUNT_API, type MeResponse } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-react';
import { currentLanguage } from '../../../lib/i18n';
import { Alert } from '../../../components/alert';
import './policy-banner.css';

/**
 * The domain's policy notice on the home: the domain requires two-step verification, the person has no
 * second factor, and the grace is running (GET /v2/user/me `policy_notice`). After the date, the next
 * password sign-in asks them to enrol before any session is given. Nothing shows when the call fails:
 * the notice is a reminder, the sign-in enforces the rule.
 */
export function PolicyBanner() {
  const { t } = useTranslation('home');
  const [until, setUntil] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    apiRequest<MeResponse>({
      method: 'GET',
      path: ACCOUNT_API.me,
      auth: true,
      schema: lazySchema('MeResponseSchema'),
      signal: controller.signal,
    }).then(
      (me) => setUntil(me.policy_notice?.two_step_required_by ?? null),
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  if (!until) return null;
  const date = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'long' }).format(new Date(until));
  return (
    <div className="policy-banner" data-testid="two-step-banner">
      <Alert variant="warning">
        {t('twoStepBanner', { date })} <Link to="/app/security">{t('twoStepBannerAction')}</Link>
      </Alert>
    </div>
  );
}
