/** API paths of spec §7 (mounted under API_PREFIX) plus the ones the issues add. */
export const API_PREFIX = '/api';

/** Fill `:params` of a path. */
export function apiPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
}
