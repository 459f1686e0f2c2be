import { useEffect, useMemo, useState } from 'react';
import { Link, Redirect, useSearchParams } from 'wouter';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { REDIRECT_AFTER_MS } from '@suite/contract/core';
import { userPath } from '../../lib/paths';
import { useConfig } from '../../lib/config';
import { useErrorMessage } from '../../lib/use-error-message';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ProgressBar } from '../../components/progress-bar';
import { Alert } from '../../components/alert';
import { Address } from '../../components/address';
import { checkInviteToken } from './invite-token';
import { useInviteAcceptance } from './use-invite-acceptance';
import { inviteSender } from './api/accept-invite';
import '../../components/auth-form.css';
import './invite.css';

/** `/confirm-invite?inviteToken=` (spec §2, §4): validating with progress, then success, already accepted, expired or error. */
export default function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('inviteToken') ?? '';
  const check = useMemo(() => checkInviteToken(token), [token]);
  if (check.kind === 'team')
    return <Redirect to={`${userPath('signup')}?inviteToken=${encodeURIComponent(token)}`} replace />;
  return <InviteAcceptance check={check} token={token} />;
}

function InviteAcceptance({ check, token }: { check: ReturnType<typeof checkInviteToken>; token: string }) {
  const { t } = useTranslation('invite');
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const { captchaSiteKey } = useConfig();
  const state = useInviteAcceptance(check, token, captchaSiteKey);
  // Who invites and to which team: the token names neither, the server says it while the invite is pending
  // or once it expired (then also whether the address is personal: sign-up would refuse it).
  const [from, setFrom] = useState<{ inviter?: string | null; team?: string; personal?: boolean; status?: string }>({});
  const [checked, setChecked] = useState(false);
  const expired = state.status === 'expired';
  useEffect(() => {
    if (check.kind === 'invalid') return;
    let live = true;
    inviteSender(token)
      .then(
        (answer) => live && setFrom(answer),
        () => undefined,
      )
      .finally(() => live && setChecked(true));
    return () => {
      live = false;
    };
    // Asked again when sign-up says "expired" after a check that said "pending".
  }, [check.kind, token, expired]);
  // Each state's title is `<status>Title`; a resumed sign-up reads as accepted while it moves on.
  const title = t(`${state.status === 'resume' ? 'success' : state.status}Title`);
  useDocumentTitle(title);
  // With a session the invitee sets name and password next; otherwise the spec's way on is the login.
  const next = state.status === 'success' && state.session ? userPath('welcome') : userPath('login');
  // Whom the invitation is for, in bold on its own line (the token names the address, not the inviter).
  const invitee =
    check.kind === 'ok' ? (
      <p className="auth-form__lead">
        {t('forAddress')}
        <span className="address-line">
          <Address email={check.email} />
        </span>
      </p>
    ) : null;
  // Who invites to which team, once the server said it: in the place of the "one moment" line (no jump).
  const sender = from.inviter ? (
    <p className="auth-form__lead">{t('fromInviter', { name: from.inviter, team: from.team })}</p>
  ) : null;
  // Where an expired invitation leads: sign-up first (a new invitation, or one's own account), then sign-in.
  // One column at every width, the primary first in reading order (a row would put it last, or flip at 360).
  const ways = (
    <div className="stack" data-testid="invite-ways">
      <Link className="btn btn--primary btn--block" to={userPath('signup')}>
        {t('toSignup')}
      </Link>
      <Link className="btn btn--secondary btn--block" to={userPath('login')}>
        {t('toLogin')}
      </Link>
    </div>
  );
  // A personal address (gmail.com…) gets in only with a valid invitation: sign-up would refuse it, so the
  // screen says whom to ask instead, and sign-in stays a quiet link for one who has an account already.
  const personalExpired = expired && from.status === 'expired' && from.personal === true;
  const expiredText = personalExpired
    ? from.inviter
      ? t('expiredPersonal', { name: from.inviter })
      : t('expiredPersonalAdmin')
    : from.status === 'expired' && from.inviter
      ? t('expiredFrom', { name: from.inviter })
      : t('expiredText');

  // Accepted before without a password: straight on to the code just mailed, then the welcome step.
  useEffect(() => {
    if (state.status === 'resume') navigate(userPath('check-token'), { replace: true });
  }, [state.status, navigate]);

  useEffect(() => {
    if (state.status !== 'success') return;
    const timer = window.setTimeout(() => navigate(next, { replace: true }), REDIRECT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [state.status, next, navigate]);

  return (
    <div className="card simple-page auth-form invite-card" aria-live="polite" data-state={state.status}>
      <h1>{title}</h1>
      {state.status === 'validating' ? (
        <>
          {invitee}
          {sender ?? <p className="auth-form__lead">{t('validatingText')}</p>}
          <ProgressBar value={state.progress} label={t('progressLabel')} />
        </>
      ) : null}
      {/* Done: the bar (it did its job while the check ran) gives way to the outcome. */}
      {state.status === 'success' ? (
        <>
          {invitee}
          {sender}
          <Alert variant="success">{state.session ? t('successTextWelcome') : t('successText')}</Alert>
          <Link to={next} replace>
            {state.session ? t('continueNow') : t('toLoginNow')}
          </Link>
        </>
      ) : null}
      {state.status === 'accepted' ? (
        <>
          <Alert variant="info">{t('acceptedText')}</Alert>
          <Link className="btn btn--primary btn--block" to={userPath('login')}>
            {t('toLogin')}
          </Link>
        </>
      ) : null}
      {state.status === 'expired' ? (
        <>
          <Alert variant="warning">{expiredText}</Alert>
          {/* The actions wait for the check (a moment): a sign-up offered, then taken back, would mislead. */}
          {!checked ? null : personalExpired ? (
            <p className="auth-form__small center-text">
              {t('haveAccount')} <Link to={userPath('login')}>{t('toLogin')}</Link>
            </p>
          ) : (
            ways
          )}
        </>
      ) : null}
      {/* A broken link says nothing about who the person is: the way on is a new link from the inviter,
          or the account they may have already; a sign-up stays a quiet link below. */}
      {state.status === 'error' ? (
        <>
          <Alert>{state.error ? errorMessage(state.error) : t('invalidText')}</Alert>
          <p className="auth-form__lead">{t('brokenNext')}</p>
          <Link className="btn btn--primary btn--block" to={userPath('login')}>
            {t('toLogin')}
          </Link>
          <p className="auth-form__small center-text">
            {t('noAccount')} <Link to={userPath('signup')}>{t('toSignup')}</Link>
          </p>
        </>
      ) : null}
    </div>
  );
}
