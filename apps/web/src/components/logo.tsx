import './logo.css';

/**
 * The product logo: always 150 px wide (spec §2, §9). The colours that follow the theme come from
 * logo.css (classes, not style attributes: a prerendered page's inline styles would break the CSP).
 */
export function Logo({ title, light = false }: { title: string; light?: boolean }) {
  // On the blue frame the mark turns white so that it stays visible.
  const mark = light ? '#ffffff' : '#0E74CC';
  const stroke = light ? '#0E74CC' : '#ffffff';
  return (
    <svg
      className={light ? 'logo logo--light' : 'logo'}
      width="150"
      height="40"
      viewBox="0 0 150 40"
      role="img"
      aria-label={title}
      focusable="false"
    >
      <rect x="0" y="4" width="32" height="32" rx="10" fill={mark} />
      <path
        d="M7 14l9 7 9-7"
        fill="none"
        stroke={stroke}
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="28" cy="9" r="6" fill="#FF4B36" className="logo__ring" strokeWidth="2" />
      <rect x="8" y="24" width="16" height="3" rx="1.5" fill="#e8822c" />
      <text x="42" y="28" fontFamily="Poppins, sans-serif" fontWeight="600" fontSize="21" className="logo__text">
        {title.length > 9 ? title.slice(0, 9) : title}
      </text>
    </svg>
  );
}
