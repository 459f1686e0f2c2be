import './ui.css';
import './progress-bar.css';

export function ProgressBar({ value, label }: { value: number; label: string }) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
    >
      {/* Empty: no style attribute (a prerendered page's inline styles are refused by the CSP; the bar's
          CSS starts it at 0). React sets the width through the CSSOM, which the CSP allows. */}
      <div className="progress__bar" style={clamped > 0 ? { width: `${clamped}%` } : undefined} />
    </div>
  );
}
