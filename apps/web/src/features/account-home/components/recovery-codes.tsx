import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { useConfig } from '../../../lib/config';
import { Button } from '../../../components/button';

/** The recovery codes, shown once: a list, a text file to download, and Done. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('security');
  const config = useConfig();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

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
    <div className="stack security__setup">
      <h4 ref={heading} tabIndex={-1} className="security__codes-title">
        {t('codes.title')}
      </h4>
      <p className="security__text">{t('codes.intro', { count: codes.length })}</p>
      <ol className="security__codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="security__actions">
        <Button variant="secondary" onClick={download}>
          {t('codes.download')}
        </Button>
        <Button onClick={onDone}>{t('codes.done')}</Button>
      </div>
    </div>
  );
}
