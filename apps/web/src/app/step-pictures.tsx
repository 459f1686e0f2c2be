import type { ReactNode } from 'react';
import type { UserComponent } from '@suite/contract/core';

/** What the left panel of the /user layout speaks about: each form, and the login's second step. */
export type PanelStep = UserComponent | 'two-step';

// The brand's colours on the panel's blue: white shapes, orange and red accents. Drawn small (viewBox
// 160×120) and inline, so that each picture is in the prerendered HTML and paints with the form: no
// request, no late swap. Presentation attributes only: the CSP refuses style attributes.
const BLUE = '#0E74CC';
const ORANGE = '#e8822c';
const RED = '#FF4B36';
const PALE = '#dcecfa';
const line = { fill: 'none', strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

const person = (x: number, y: number, size: number, fill: string) => (
  <g fill={fill}>
    <circle cx={x} cy={y} r={size * 0.45} />
    <path
      d={`M${x - size} ${y + size * 1.45}c0-${size * 0.6} ${size * 0.45}-${size * 0.95} ${size}-${size * 0.95}s${size} ${size * 0.35} ${size} ${size * 0.95}z`}
    />
  </g>
);

const envelope = (x: number, y: number, w: number, h: number) => (
  <>
    <rect x={x} y={y} width={w} height={h} rx="12" fill="#fff" />
    <path
      d={`M${x + 10} ${y + 12}l${w / 2 - 10} ${h * 0.4} ${w / 2 - 10}-${h * 0.4}`}
      stroke={BLUE}
      strokeWidth="6"
      {...line}
    />
  </>
);

/** Six boxes grouped 3-3, the first three typed. */
const codeBoxes = (
  <>
    {[12, 34, 56, 86, 108, 130].map((x, i) => (
      <g key={x}>
        <rect x={x} y="76" width="18" height="26" rx="5" fill="#fff" />
        {i < 3 ? <circle cx={x + 9} cy="89" r="3.5" fill={BLUE} /> : null}
      </g>
    ))}
  </>
);

const badge = (x: number, y: number, fill: string, mark: ReactNode) => (
  <>
    <circle cx={x} cy={y} r="15" fill={fill} />
    <g stroke="#fff" strokeWidth="4" transform={`translate(${x} ${y})`} {...line}>
      {mark}
    </g>
  </>
);
const plus = <path d="M0-7v14M-7 0h7 7" />;
const check = <path d="M-7 0l5 5 9-10" />;
const question = <path d="M-4-4a4.5 4.5 0 1 1 6 4c-2 1-2 2-2 3.5M0 8v.5" />;

const PICTURES: Record<PanelStep, ReactNode> = {
  signup: (
    <>
      {envelope(28, 30, 104, 70)}
      {badge(128, 30, ORANGE, plus)}
    </>
  ),
  'check-token': (
    <>
      {envelope(44, 12, 72, 52)}
      {codeBoxes}
    </>
  ),
  'check-token-recovery': (
    <>
      {envelope(44, 12, 72, 52)}
      {codeBoxes}
      {badge(120, 14, ORANGE, question)}
    </>
  ),
  welcome: (
    <>
      <rect x="30" y="12" width="100" height="96" rx="14" fill="#fff" />
      {person(80, 40, 22, BLUE)}
      {[62, 74, 86, 98].map((x) => (
        <circle key={x} cx={x} cy="94" r="4" fill={ORANGE} />
      ))}
    </>
  ),
  'add-teammates': (
    <>
      <circle cx="34" cy="70" r="24" fill={PALE} />
      {person(34, 64, 13, ORANGE)}
      <circle cx="126" cy="70" r="24" fill={PALE} />
      {person(126, 64, 13, RED)}
      <circle cx="80" cy="58" r="36" fill="#fff" />
      {person(80, 50, 18, BLUE)}
      {badge(112, 24, ORANGE, plus)}
    </>
  ),
  login: (
    <>
      <rect x="64" y="12" width="58" height="96" rx="10" fill="#fff" />
      <circle cx="110" cy="62" r="4.5" fill={BLUE} />
      <path d="M22 62h62M68 46l16 16-16 16" stroke={ORANGE} strokeWidth="9" {...line} />
    </>
  ),
  'two-step': (
    <>
      <rect x="34" y="10" width="56" height="100" rx="12" fill="#fff" />
      <rect x="42" y="24" width="40" height="62" rx="5" fill={PALE} />
      <circle cx="62" cy="98" r="4" fill={BLUE} />
      <path d="M98 38l24-9 24 9v20c0 17-11 28-24 34-13-6-24-17-24-34z" fill={ORANGE} />
      <path d="M111 59l8 8 15-16" stroke="#fff" strokeWidth="5" {...line} />
    </>
  ),
  'recovery-password': (
    <>
      <circle cx="50" cy="66" r="26" fill="#fff" />
      <circle cx="50" cy="66" r="9" fill={BLUE} />
      <path d="M76 66h64M126 66v16M110 66v12" stroke="#fff" strokeWidth="10" {...line} />
      {badge(126, 30, ORANGE, question)}
    </>
  ),
  'update-password': (
    <>
      <path d="M56 56V40a24 24 0 0 1 48 0v16" stroke="#fff" strokeWidth="9" {...line} />
      <rect x="38" y="52" width="84" height="58" rx="12" fill="#fff" />
      {[62, 80, 98].map((x) => (
        <circle key={x} cx={x} cy="81" r="6" fill={BLUE} />
      ))}
      {badge(124, 104, ORANGE, check)}
    </>
  ),
};

/** The picture of a step: decorative (the sentence beside it says what the step is for). */
export function StepPicture({ step }: { step: PanelStep }) {
  return (
    <svg viewBox="0 0 160 120" aria-hidden="true" focusable="false">
      {PICTURES[step]}
    </svg>
  );
}
