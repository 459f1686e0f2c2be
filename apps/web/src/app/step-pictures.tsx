import type { UserComponent } from '@suite/contract/core';

/** What the left panel of the /user layout speaks about: each form, and the login's second step. */
export type PanelStep = UserComponent | 'two-step';

/**
 * The picture of a step: decorative (the sentence beside it says what the step is for). Drawn in
 * step-pictures.svg, which every page's HTML carries (vite.config.ts): a reference to its symbol paints
 * in the first frame and costs the code nothing.
 */
export function StepPicture({ step }: { step: PanelStep }) {
  return (
    <svg viewBox="0 0 160 120" aria-hidden="true" focusable="false">
      <use href={`#step-${step}`} />
    </svg>
  );
}
