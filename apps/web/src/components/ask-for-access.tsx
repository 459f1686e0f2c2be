import { useId, useState, type FormEvent } from 'react';
import { ACCOUNT_API, isEmailShape, type Language } from '@suite/contract/core';
import type { AccessRequestReason } from '@suite/contract';
import { ApiError, apiRequest } from '../lib/api-client';
import { useTranslation } from '../lib/i18n-react';
import { Alert } from './alert';
import { Button } from './button';
import { EmailField } from './email-field';
import './ask-for-access.css';

/** Only a failure to reach the server says anything else: whatever the server answered, the person hears the same. */
const unsent = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * "Ask for access" on a screen that says "contact your domain administrator": a quiet action that asks
 * the domain's administrators (POST /access-requests) and then shows one confirmation, the same whether
 * the domain has administrators, exists, or the ask was over its limit, so that nothing is revealed.
 * With `email` (the address the screen already has) it is one button; without, it asks for the address.
 * Loaded lazily by the screens that show it: none of its code or texts is in their first load.
 */
export default function AskForAccess({ reason, email }: { reason: AccessRequestReason; email?: string }) {
  const { t, i18n } = useTranslation('access');
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'unsent'>('idle');
  const id = useId();

  const send = async (to: string) => {
    setState('sending');
    try {
      await apiRequest({
        method: 'POST',
        path: ACCOUNT_API.accessRequests,
        body: { email: to, reason, language: i18n.language as Language },
      });
      setState('sent');
    } catch (failure) {
      setState(unsent(failure) ? 'unsent' : 'sent');
    }
  };

  if (state === 'sent') {
    return (
      <div className="ask-access">
        <Alert variant="success">{t('sent')}</Alert>
      </div>
    );
  }

  const ask = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const to = address.trim();
    if (!isEmailShape(to) || !to) {
      setFieldError(t('invalidEmail'));
      event.currentTarget.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
      return;
    }
    void send(to);
  };

  return (
    <div className="ask-access">
      {state === 'unsent' ? <Alert>{t('unsent')}</Alert> : null}
      {email ? (
        <Button
          variant="link"
          className="ask-access__button"
          loading={state === 'sending'}
          onClick={() => void send(email)}
        >
          {t('ask')}
        </Button>
      ) : !open ? (
        <Button variant="link" className="ask-access__button" onClick={() => setOpen(true)} aria-expanded={false}>
          {t('ask')}
        </Button>
      ) : (
        <form className="ask-access__form" onSubmit={ask} noValidate aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`} className="ask-access__title">
            {t('ask')}
          </h2>
          <p className="ask-access__lead">{t('lead')}</p>
          <EmailField
            label={t('email')}
            name="email"
            invalidMessage={t('invalidEmail')}
            value={address}
            error={fieldError}
            autoFocus
            onChange={(e) => {
              setAddress(e.target.value);
              setFieldError(null);
            }}
          />
          <Button type="submit" variant="secondary" loading={state === 'sending'}>
            {t('send')}
          </Button>
        </form>
      )}
    </div>
  );
}
