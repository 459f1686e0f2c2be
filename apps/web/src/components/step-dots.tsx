import { useTranslation } from '../lib/i18n-react';
import './ui.css';

/** The step dots of the /user layout: `index` is zero-based. */
export function StepDots({ total, index }: { total: number; index: number }) {
  const { t } = useTranslation('common');
  return (
    <ol className="dots" aria-label={t('steps.label', { current: index + 1, total })}>
      {Array.from({ length: total }, (_, i) => (
        <li
          key={i}
          className={`dots__dot${i === index ? ' dots__dot--current' : i < index ? ' dots__dot--done' : ''}`}
          aria-current={i === index ? 'step' : undefined}
        >
          <span className="visually-hidden">{t('steps.item', { n: i + 1 })}</span>
        </li>
      ))}
    </ol>
  );
}
