/**
 * What a person typed into a prerendered page's fields (or chose in its selects) before the app hydrated
 * it: hydration sets each field back to its state's value, so main.tsx keeps the typed values just
 * before, and each field (components/text-field.tsx, the footer's language) hands its own to its change
 * handler once it is hydrated, as if typed then.
 */
const typed = new Map<Element, string>();

/**
 * The prerendered page's boot script (build/prerender.mjs) holds back a form sent before the app ran (a
 * click on Sign in while the code was still coming): it keeps the form in `earlySubmit` until the app
 * says it has taken over (`hydrating`), and the form's submit hook sends it again once hydrated.
 */
interface BootGlobals {
  hydrating?: boolean;
  earlySubmit?: HTMLFormElement;
}
let early: HTMLFormElement | undefined;

/**
 * Called just before the app hydrates the prerendered `root` (or, with null, replaces it): the values
 * typed into its fields and a form sent early are kept for the hydrated screen; from now on a form is the
 * app's to send.
 */
export function takeOver(root: HTMLElement | null): void {
  const boot = window as BootGlobals;
  boot.hydrating = true;
  if (!root) return;
  early = boot.earlySubmit;
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
    'input, textarea, select',
  )) {
    const box = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    const changed =
      field instanceof HTMLSelectElement
        ? !field.selectedOptions[0]?.defaultSelected
        : field.value !== field.defaultValue;
    if (!box && changed) typed.set(field, field.value);
  }
}

/** The form sent before hydration (once), if it is still on the page. */
export function takeEarlySubmit(): HTMLFormElement | undefined {
  const form = early;
  early = undefined;
  return form?.isConnected ? form : undefined;
}

/** The value typed into this field before hydration (once), if any. */
export function takeTyped(field: Element | null): string | undefined {
  if (!field) return undefined;
  const value = typed.get(field);
  typed.delete(field);
  return value;
}
