import { useTranslation } from '../../../lib/i18n-react';
import { formatBytes } from '../../../lib/format-bytes';

/** "1.2 MB of 1 GB used" with a meter of the same (the meter is named by the text). */
export function StorageUsage({ usedBytes, quotaBytes }: { usedBytes: number; quotaBytes: number }) {
  const { t, i18n } = useTranslation('files');
  const text = t('usage', {
    used: formatBytes(usedBytes, i18n.language),
    quota: formatBytes(quotaBytes, i18n.language),
  });
  return (
    <div className="files__usage">
      <meter
        className="files__meter"
        min={0}
        max={quotaBytes}
        value={Math.min(usedBytes, quotaBytes)}
        high={quotaBytes * 0.9}
        aria-label={text}
      />
      <span className="muted files__usage-text">{text}</span>
    </div>
  );
}
