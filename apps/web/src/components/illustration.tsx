/** Decorative illustration of the /user layout's left panel: mail and a video call. */
export function Illustration() {
  return (
    <svg viewBox="0 0 320 240" width="100%" style={{ maxWidth: 320 }} aria-hidden="true" focusable="false">
      <rect x="20" y="40" width="200" height="140" rx="24" fill="#ffffff" opacity="0.95" />
      <rect x="36" y="58" width="168" height="96" rx="16" fill="#dcecfa" />
      <circle cx="120" cy="96" r="22" fill="#0E74CC" />
      <rect x="92" y="122" width="56" height="24" rx="12" fill="#0E74CC" />
      <rect x="36" y="160" width="40" height="10" rx="5" fill="#FF4B36" />
      <rect x="84" y="160" width="40" height="10" rx="5" fill="#e8822c" />
      <g transform="translate(180 100)">
        <rect width="120" height="86" rx="18" fill="#ffffff" />
        <path
          d="M14 22l46 32 46-32"
          fill="none"
          stroke="#0E74CC"
          strokeWidth="6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="110" cy="8" r="14" fill="#FF4B36" />
        <text
          x="110"
          y="13"
          textAnchor="middle"
          fontFamily="Poppins, sans-serif"
          fontWeight="600"
          fontSize="14"
          fill="#fff"
        >
          1
        </text>
      </g>
    </svg>
  );
}
