/** The product logo: always 150 px wide (spec §2, §9). */
export function Logo({ title, light = false }: { title: string; light?: boolean }) {
  // Off the frame the text follows the theme (dark grey on light, near-white on dark).
  const text = light ? '#ffffff' : 'var(--text)';
  // On the blue frame the mark turns white so that it stays visible.
  const mark = light ? '#ffffff' : '#0E74CC';
  const stroke = light ? '#0E74CC' : '#ffffff';
  // The badge's ring cuts it out of whatever is behind the logo.
  const ring = light ? '#0E74CC' : 'var(--surface)';
  return (
    <svg width="150" height="40" viewBox="0 0 150 40" role="img" aria-label={title} focusable="false">
      <rect x="0" y="4" width="32" height="32" rx="10" fill={mark} />
      <path
        d="M7 14l9 7 9-7"
        fill="none"
        stroke={stroke}
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="28" cy="9" r="6" fill="#FF4B36" style={{ stroke: ring }} strokeWidth="2" />
      <rect x="8" y="24" width="16" height="3" rx="1.5" fill="#e8822c" />
      <text x="42" y="28" fontFamily="Poppins, sans-serif" fontWeight="600" fontSize="21" style={{ fill: text }}>
        {title.length > 9 ? title.slice(0, 9) : title}
      </text>
    </svg>
  );
}
