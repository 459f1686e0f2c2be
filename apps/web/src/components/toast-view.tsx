import { useEffect } from 'react';
import './toast.css';
import { useTranslation } from '../lib/i18n-react';

/** How long a toast stays before it goes by itself. */
const TOAST_MS = 6000;

/** One toast (components/toast.tsx): its words and a close button; it goes by itself after TOAST_MS. */
export default function ToastView({ message, onClose }: { message: string; onClose: () => void }) {
  const { t } = useTranslation('common');
  useEffect(() => {
    const timer = window.setTimeout(onClose, TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [onClose]);
  return (
    <div className="toast">
      <span>{message}</span>
      <button type="button" className="toast__close" aria-label={t('actions.close')} onClick={onClose}>
        ×
      </button>
    </div>
  );
}
