import { useTranslation } from '../../../lib/i18n-react';

/**
 * Where a blocked microphone and camera are allowed again: a small drawing of the address bar with the
 * site-settings icon (a padlock, or the "tune" sliders in recent Chrome) ringed, and the steps in words.
 * The drawing is decorative; the text says the same.
 */
export function PermissionHelp() {
  const { t } = useTranslation('meeting');
  return (
    <div className="meet-perm" data-testid="permission-help">
      <svg className="meet-perm__bar" viewBox="0 0 240 44" aria-hidden="true" focusable="false">
        <rect x="1" y="1" width="238" height="42" rx="21" className="meet-perm__field" />
        <circle cx="24" cy="22" r="15" className="meet-perm__ring" />
        {/* The "tune" icon: two sliders. */}
        <path d="M16 17h10M30 17h2M16 27h2M22 27h10" className="meet-perm__glyph" />
        <circle cx="28" cy="17" r="2.5" className="meet-perm__glyph" />
        <circle cx="20" cy="27" r="2.5" className="meet-perm__glyph" />
        <rect x="48" y="17" width="150" height="10" rx="5" className="meet-perm__url" />
      </svg>
      <div className="meet-perm__text">
        <p className="meet-perm__title">{t('setup.blocked.title')}</p>
        <p>{t('setup.blocked.how')}</p>
      </div>
    </div>
  );
}
