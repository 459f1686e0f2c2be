import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { LANGUAGE_TAGS, type Language, type Passkey, type SecurityState } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { securityState } from '../api/security';
import { useNow } from '../hooks/use-sessions';
import { useDeviceLabel } from './session-item';
import { PasskeyItem } from './passkey-item';
import { ProofCancelled, useFreshProof } from '../../../components/fresh-proof';
import { TwoStep } from './two-step';
import '../../../components/item-list.css';
import './sessions.css';
import './security.css';

/** How long a confirmation stays beside what changed: long enough to read twice. */
const CONFIRMATION_MS = 8000;

type State = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; security: SecurityState };

/**
 * Signed-in home: the Security panel — passkeys (add, rename, remove, last use) and two-step
 * verification with an authenticator app (turn on with a QR code and one code, recovery codes, turn off).
 * The WebAuthn code is loaded only when a passkey is added. A change refused for want of a recent
 * proof opens the fresh-proof dialog, then is made again.
 */
export function SecurityPanel() {
  const { t, i18n } = useTranslation('security');
  const deviceLabel = useDeviceLabel();
  const now = useNow();
  const [state, setState] = useState<State>({ status: 'loading' });
  // A confirmation shows beside the part that changed (passkeys, or two-step verification), then goes.
  const [announcement, setAnnouncementOf] = useState<{ part: 'passkeys' | 'totp'; text: string } | null>(null);
  const setAnnouncement = useCallback(
    (text: string) => setAnnouncementOf(text ? { part: 'passkeys', text } : null),
    [],
  );
  const announceTotp = useCallback((text: string) => setAnnouncementOf(text ? { part: 'totp', text } : null), []);
  useEffect(() => {
    if (!announcement) return;
    const timer = setTimeout(() => setAnnouncementOf(null), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [announcement]);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const languageTag = LANGUAGE_TAGS[i18n.language as Language] ?? i18n.language;
  const supported = typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

  const reload = useCallback(() => {
    securityState().then(
      (security) => setState({ status: 'ready', security }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, []);
  useEffect(reload, [reload]);

  const proof = useFreshProof(state.status === 'ready' ? state.security.reauth : undefined);

  const setPasskeys = (update: (list: Passkey[]) => Passkey[]) =>
    setState((s) =>
      s.status === 'ready' ? { ...s, security: { ...s.security, passkeys: update(s.security.passkeys) } } : s,
    );

  const adding = useFormSubmit({
    movesOn: false,
    send: async () => {
      setAnnouncement('');
      const { addPasskey, PasskeyCancelled } = await import('../../../lib/webauthn');
      try {
        const added = await proof.withProof(() => addPasskey(deviceLabel(navigator.userAgent)));
        setPasskeys((list) => [...list, added]);
        setAnnouncement(t('passkeys.added', { name: added.name }));
      } catch (failure) {
        // Closing the browser's passkey dialog, or the fresh-proof one, is no failure: it is only said.
        if (!(failure instanceof PasskeyCancelled) && !(failure instanceof ProofCancelled)) throw failure;
        setAnnouncement(t('passkeys.cancelled'));
      }
    },
  });

  return (
    <section className="card stack security" aria-labelledby="security-title">
      <div>
        <h2 id="security-title" ref={titleRef} tabIndex={-1}>
          {t('title')}
        </h2>
        <p className="muted security__intro">{t('intro')}</p>
      </div>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={reload} />}
      {state.status === 'ready' && (
        <>
          <div className="stack security__part">
            <h3 id="passkeys-title">{t('passkeys.title')}</h3>
            <p className="muted security__text">{t('passkeys.intro')}</p>
            {state.security.passkeys.length > 0 ? (
              <ul className="item-list" aria-labelledby="passkeys-title">
                {state.security.passkeys.map((passkey) => (
                  <PasskeyItem
                    key={passkey._id}
                    passkey={passkey}
                    now={now}
                    languageTag={languageTag}
                    onRenamed={(renamed) =>
                      setPasskeys((list) => list.map((p) => (p._id === renamed._id ? renamed : p)))
                    }
                    onRemoved={(removed) => {
                      setPasskeys((list) => list.filter((p) => p._id !== removed._id));
                      setAnnouncement(t('passkeys.removed', { name: removed.name }));
                      titleRef.current?.focus();
                    }}
                    withProof={proof.withProof}
                    onCancelled={() => setAnnouncement(t('passkeys.removeCancelled'))}
                  />
                ))}
              </ul>
            ) : (
              <p className="security__none">{t('passkeys.none')}</p>
            )}
            <p role="status" aria-live="polite" className="security__status">
              {announcement?.part === 'passkeys' ? announcement.text : ''}
            </p>
            {adding.error !== null && <Alert>{adding.error}</Alert>}
            <div className="security__actions">
              {supported ? (
                <Button variant="secondary" onClick={() => void adding.run(null)} loading={adding.busy}>
                  {t('passkeys.add')}
                </Button>
              ) : (
                <p className="muted security__text">{t('passkeys.unsupported')}</p>
              )}
            </div>
          </div>
          <TwoStep
            security={state.security}
            onChanged={(totp, left) =>
              setState((s) =>
                s.status === 'ready' ? { ...s, security: { ...s.security, totp, recovery_codes_left: left } } : s,
              )
            }
            announce={announceTotp}
            withProof={proof.withProof}
          />
          <p role="status" aria-live="polite" className="security__status">
            {announcement?.part === 'totp' ? announcement.text : ''}
          </p>
        </>
      )}
      {proof.dialog}
    </section>
  );
}
