/**
 * What a person typed into a prerendered page's fields before the app hydrated it: hydration sets each
 * field back to its state's value, so main.tsx keeps the typed values just before, and each field
 * (components/text-field.tsx) hands its own to its change handler once it is hydrated, as if typed then.
 */
const typed = new Map<Element, string>();

export function keepTyped(root: HTMLElement): void {
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    const box = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    if (!box && field.value !== field.defaultValue) typed.set(field, field.value);
  }
}

/** The value typed into this field before hydration (once), if any. */
export function takeTyped(field: Element | null): string | undefined {
  if (!field) return undefined;
  const value = typed.get(field);
  typed.delete(field);
  return value;
}
