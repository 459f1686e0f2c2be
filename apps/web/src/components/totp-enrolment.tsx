import { useEffect, useRef } from 'react';
import type { TotpSetupResponse } from '@suite/contract/core';
import { useTranslation } from '../lib/i18n-react';
import { useConfig } from '../lib/config';
import { useCopyToClipboard } from '../lib/use-copy-to-clipboard';
import { Button } from './button';
import './totp-enrolment.css';

/**
 * The authenticator app's enrolment pieces, shared by the Security panel and the enrolment a domain's
 * policy asks for at sign-in: the QR code (an SVG the server drew, shown as an image: nothing of it
 * runs) with the key as text, and the recovery codes shown once.
 */
export function TotpKey({ setup }: { setup: TotpSetupResponse }) {
  const { t } = useTranslation('security');
  return (
    <>
      <p>{t('totp.scan')}</p>
      <img
        className="totp__qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
        alt={t('totp.qrAlt')}
        width={176}
        height={176}
      />
      <p className="totp__text">{t('totp.orKey')}</p>
      <code className="totp__secret" data-testid="totp-secret">
        {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
      </code>
    </>
  );
}

/** The recovery codes, shown once: a list, Copy, a text file to download, and Done. */
export function RecoveryCodes({
  codes,
  onDone,
  doneLabel,
  heading: Heading = 'h4',
}: {
  codes: string[];
  onDone: () => void;
  doneLabel?: string;
  /** The heading's level where the codes are shown (a part of the Security panel, or a page of its own). */
  heading?: 'h1' | 'h4';
}) {
  const { t } = useTranslation('security');
  const config = useConfig();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { status, copy } = useCopyToClipboard(2000);
  useEffect(() => headingRef.current?.focus(), []);

  function download() {
    const text = [t('codes.fileTitle', { app: config.appTitle }), '', ...codes, '', t('codes.fileNote'), ''].join('\n');
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${config.appTitle.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-recovery-codes.txt`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <div className="stack totp__codes-block" data-print="recovery-codes">
      <Heading ref={headingRef} tabIndex={-1} className="totp__codes-title">
        {t('codes.title')}
      </Heading>
      <p className="totp__text">{t('codes.intro', { count: codes.length })}</p>
      <ol className="totp__codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p className="totp__text" role="status">
        {status === 'copied' ? t('codes.copied') : status === 'manual' ? t('codes.copyManual') : ''}
      </p>
      {/* Three small ways to keep the codes on one row under them; the step's one action stands apart. */}
      <div className="totp__tools">
        <Button variant="secondary" className="btn--small" onClick={() => void copy(codes.join('\n'))}>
          {t('codes.copy')}
        </Button>
        <Button variant="secondary" className="btn--small" onClick={download}>
          {t('codes.download')}
        </Button>
        {/* The print style sheet (totp-enrolment.css) prints the codes alone. */}
        <Button variant="secondary" className="btn--small" onClick={() => window.print()}>
          {t('codes.print')}
        </Button>
      </div>
      <div className="totp__actions">
        <Button onClick={onDone}>{doneLabel ?? t('codes.done')}</Button>
      </div>
    </div>
  );
}
