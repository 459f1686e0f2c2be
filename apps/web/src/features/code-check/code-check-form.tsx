import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useNavigate } from '../../lib/navigation';
import { carriedAddress } from '../../lib/carried-address';
import { useTranslation } from '../../lib/i18n-react';
import { CODE_LENGTH, CODE_MAIL_SPACING_S, CODE_TTL_MS, MAX_CODE_TRIES } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { useConfig } from '../../lib/config';
import { flowEmail } from '../../lib/flow-email';
import { saveSession } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useErrorMessage } from '../../lib/use-error-message';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { CodeBoxes, type CodeBoxesHandle } from '../../components/code-boxes';
import { Address, WithAddress } from '../../components/address';
import { Button } from '../../components/button';
import { Alert } from '../../components/alert';
import { NoSession } from '../../components/no-session';
import { useDialog } from '../../components/confirm-dialog';
import { confirmCode, resendCode, type CodeMode } from './api/codes';
import '../../components/auth-form.css';
import './code-check.css';

/** `text`: words, or a failure shown as its localized text at render (the error texts may come after it). */
type Notice = { variant: 'error' | 'info' | 'success'; text: unknown; toLogin?: boolean } | null;

/** Seconds before "Send again" works again after a send: the server's spacing of code mails, shown. */
const RESEND_COOLDOWN_S = CODE_MAIL_SPACING_S;

/**
 * The wait before "Send again": started when the screen opens (a code was just mailed), after each send
 * and after the server mailed a new code by itself (an expired one was typed). Ticks once a second for
 * the eyes only: the line that shows it is not a live region.
 */
function useCooldown() {
  const [until, setUntil] = useState(() => Date.now() + RESEND_COOLDOWN_S * 1000);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = window.setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= until) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return {
    left,
    start: useCallback(() => {
      setNow(Date.now());
      setUntil(Date.now() + RESEND_COOLDOWN_S * 1000);
    }, []),
  };
}

/** `/user/check-token` and `/user/check-token-recovery`: the six-box code check (spec §2, §4, §8). */
export default function CodeCheckForm() {
  // One form for both addresses: the recovery one says so.
  const [pathname] = useLocation();
  const mode: CodeMode = /\/check-token-recovery\/?$/.test(pathname) ? 'recovery' : 'signup';
  const { t } = useTranslation('codeCheck');
  useDocumentTitle(mode === 'recovery' ? t('titleRecovery') : t('title'));
  const errorMessage = useErrorMessage();
  const config = useConfig();
  const navigate = useNavigate();
  const { openDialog } = useDialog();
  const boxes = useRef<CodeBoxesHandle>(null);
  const noticeId = useId();
  const [email] = useState(flowEmail.get);
  const [notice, setNotice] = useState<Notice>(null);
  // Wrong codes for the current code, counted from the server's INVALID_TOKEN answers (3 per code).
  const [wrong, setWrong] = useState(0);
  const { left: cooldownLeft, start: startCooldown } = useCooldown();

  const resending = useFormSubmit({
    movesOn: false,
    captcha: 'resend',
    send: async (captcha) => {
      setNotice(null);
      await resendCode(mode, email, captcha);
      setNotice({ variant: 'success', text: t('sent', { email }) });
      setWrong(0);
      startCooldown();
      boxes.current?.clear();
    },
    failure: (caught) => {
      const code = caught instanceof ApiError ? caught.code : '';
      // Asked again inside the minute (another tab, a reload): the code mailed moments ago still works.
      if (code === 'ERR_CODE_SENT_RECENTLY') {
        startCooldown();
        setNotice({ variant: 'info', text: caught });
        return null;
      }
      setNotice({ variant: 'error', text: caught, toLogin: code === 'ERR_USER_ALREADY_CONFIRMED' });
      boxes.current?.clear();
      return null;
    },
  });
  const resend = () => resending.run(null);

  // Paste and typing can both complete the code in one tick: the hook lets only one check be in flight.
  const { busy: checking, run } = useFormSubmit({
    failure: (caught) => {
      const code = caught instanceof ApiError ? caught.code : '';
      // A new code (expired → mailed again) or none left to try: the count starts over.
      setWrong((w) => (code === 'INVALID_TOKEN' ? w + 1 : 0));
      // The server mailed a new code by itself: "Send again" waits its minute as after any send.
      if (code === 'ERR_TOKEN_EXPIRED') startCooldown();
      if (code === 'ERR_MAX_TRIES_EXCEEDED') {
        openDialog({
          title: t('maxTriesTitle'),
          text: t('maxTriesText'),
          primaryLabel: t('resend'),
          secondaryLabel: t('cancel'),
          onPrimary: () => void resend(),
        });
      }
      setNotice({
        variant: code === 'ERR_TOKEN_EXPIRED' ? 'info' : 'error',
        text: caught,
        toLogin: code === 'ERR_USER_ALREADY_CONFIRMED',
      });
      boxes.current?.clear();
      return null;
    },
  });

  function check(code: string) {
    setNotice(null);
    return run(null, async () => {
      const body = { token: code, email };
      const session = await confirmCode(mode, body).catch(async (caught: unknown) => {
        // Many failed checks on this address, from anywhere: the server asks for a captcha answer
        // (docs/security.md, "captcha step-up"); the same code is sent again with one.
        if (!(caught instanceof ApiError && caught.code === 'ERR_CAPTCHA_REQUIRED')) throw caught;
        const captcha = await (await import('../../lib/captcha')).captchaToken(config.captchaSiteKey, 'code');
        if (!captcha) throw caught;
        return confirmCode(mode, { ...body, captcha_token: captcha });
      });
      if (!saveSession(session)) throw new ApiError(0, 'ERR_REQUEST', 'Request Error');
      flowEmail.clear();
      navigate(userPath(mode === 'signup' ? 'welcome' : 'update-password'), { replace: true });
    });
  }

  if (!email) {
    return (
      <NoSession
        title={t('title')}
        message={t('noEmail')}
        linkTo={userPath(mode === 'signup' ? 'signup' : 'recovery-password')}
        linkText={t('startAgain')}
      />
    );
  }

  const firstForm = userPath(mode === 'signup' ? 'signup' : 'recovery-password');
  // The lifetime the server gives codes (CODE_TTL_SECONDS), in whole minutes as the mail says it.
  const minutes = Math.max(1, Math.round((config.codeTtlSeconds ?? CODE_TTL_MS / 1000) / 60));
  const wrongCode = notice?.variant === 'error' && wrong > 0 && wrong < MAX_CODE_TRIES;
  return (
    <div className="auth-form code-check" aria-busy={checking || undefined}>
      <h1 id="code-title">{mode === 'recovery' ? t('titleRecovery') : t('title')}</h1>
      <p className="auth-form__lead" data-testid="code-lead">
        {mode === 'recovery' ? t('leadRecovery', { n: CODE_LENGTH }) : t('lead', { n: CODE_LENGTH })}
        <span className="address-line">
          <Address email={email} />
        </span>
      </p>
      <CodeBoxes
        ref={boxes}
        label={t('label')}
        digitLabel={(n) => t('digit', { n, total: CODE_LENGTH })}
        onComplete={(code) => void check(code)}
        busy={checking}
        invalid={notice?.variant === 'error'}
        onType={() => setNotice((current) => (current?.variant === 'error' ? null : current))}
        describedBy={noticeId}
      />
      {/* The card is pinned to the top: a message here pushes only what is below it, downward. */}
      <div id={noticeId}>
        {checking ? <p className="auth-form__small muted">{t('checking')}</p> : null}
        {notice && !checking ? (
          <Alert variant={notice.variant}>
            <WithAddress text={errorMessage(notice.text)} email={email} />
            {wrongCode ? ' ' : null}
            {wrongCode ? (
              <span data-testid="tries-left" className="alert__line">
                {t('triesLeft', { count: MAX_CODE_TRIES - wrong })}
              </span>
            ) : null}
            {notice.toLogin ? (
              <>
                {' '}
                <Link to={userPath('login')}>{t('toLogin')}</Link>
              </>
            ) : null}
          </Alert>
        ) : null}
      </div>
      <p className="auth-form__small muted">{t('validFor', { count: minutes })}</p>
      {/* One action under the boxes (typing the code is the main one): "Send again", waiting its minute;
          the way back is one quiet link, to the form the address was typed on, with the address in it. */}
      <div className="code-check__resend">
        <Button
          variant="secondary"
          onClick={() => void resend()}
          loading={resending.busy}
          disabled={checking || resending.busy || cooldownLeft > 0}
        >
          {t('resend')}
        </Button>
        <p className="auth-form__small muted" data-testid={cooldownLeft > 0 ? 'resend-cooldown' : undefined}>
          {cooldownLeft > 0 ? t('resendIn', { count: cooldownLeft }) : t('hint')}
        </p>
      </div>
      <p className="auth-form__small code-check__links">
        <Link to={firstForm} replace onClick={() => carriedAddress.set(email)}>
          {t('back')}
        </Link>
      </p>
    </div>
  );
}
