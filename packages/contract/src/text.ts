/**
 * Length in Unicode code points, the unit of the spec's password rule (6–64 characters): an emoji
 * counts once, as the user sees it, not as two UTF-16 units. Server and web count with this alone.
 */
export function textLength(value: string): number {
  return [...value].length;
}
