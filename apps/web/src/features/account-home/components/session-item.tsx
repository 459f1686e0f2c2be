import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { ActiveSession } from '@suite/contract/core';
import { ApiError } from '../../../lib/api-client';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { endSession } from '../api/sessions';
import { deviceParts } from '../lib/device-label';
import { relativeTime } from '../lib/relative-time';

/** An answer that says this device's own session is no longer accepted (ended elsewhere, or expired). */
export const sessionEnded = (error: unknown): boolean => error instanceof ApiError && error.status === 401;

/** The readable device name of a session, in the UI language. */
export function useDeviceLabel(): (userAgent: string | null) => string {
  const { t } = useTranslation('sessions');
  return (userAgent) => {
    const parts = deviceParts(userAgent);
    switch (parts.kind) {
      case 'browser-os':
        return t('device.browserOs', { browser: parts.browser, os: parts.os });
      case 'browser':
        return parts.browser;
      case 'os':
        return t('device.os', { os: parts.os });
      default:
        return t('device.app');
    }
  };
}

interface Props {
  session: ActiveSession;
  now: Date;
  /** BCP 47 tag of the UI language, for the dates. */
  languageTag: string;
  /** The session is gone (signed out here, or had already ended). */
  onEnded: (session: ActiveSession, label: string) => void;
  /** This device's own session was refused. */
  onSignedOutHere: () => void;
}

/** One session: device, last activity, "This device" or a sign-out button. */
export function SessionItem({ session, now, languageTag, onEnded, onSignedOutHere }: Props) {
  const { t } = useTranslation('sessions');
  const deviceLabel = useDeviceLabel();
  const titleId = useId();
  const label = deviceLabel(session.device);
  // A server clock slightly ahead must not read as "in 1 minute".
  const seen = new Date(Math.min(Date.parse(session.last_seen_at), now.getTime()));
  const when = relativeTime(seen, now, languageTag);
  const dates = new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: 'short' });
  const created = new Date(session.created_at);

  const signOut = useFormSubmit({
    send: async () => {
      await endSession(session._id);
      onEnded(session, label);
    },
    failure: (failure) => {
      if (sessionEnded(failure)) onSignedOutHere();
      // Already ended (elsewhere, or it expired meanwhile): it is gone either way.
      else if (failure instanceof ApiError && failure.status === 404) onEnded(session, label);
      else return { form: failure };
      return null;
    },
  });

  return (
    <li className={`item-list__item${session.current ? ' sessions__item--current' : ''}`} aria-labelledby={titleId}>
      <div className="item-list__head">
        <div className="item-list__meta sessions__meta">
          <h3 id={titleId} className="item-list__name">
            {label}
          </h3>
          <span className="muted sessions__details">
            {session.current && <span className="sessions__current">{t('thisDevice')}</span>}
            {session.method === 'sso' && <span>{t('methodSso')}</span>}
            <time dateTime={seen.toISOString()} title={dates.format(seen)}>
              {t('lastSeen', { when })}
            </time>
          </span>
          <time className="muted sessions__details" dateTime={created.toISOString()}>
            {t('signedIn', { date: dates.format(created) })}
          </time>
        </div>
        {!session.current && (
          <Button
            variant="secondary"
            className="sessions__sign-out"
            aria-label={t('signOutOf', { device: label })}
            onClick={() => void signOut.run(null)}
            loading={signOut.busy}
          >
            {t('signOut')}
          </Button>
        )}
      </div>
      {signOut.error !== null && <Alert>{signOut.error}</Alert>}
    </li>
  );
}
