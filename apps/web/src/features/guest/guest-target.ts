import { safeRedirectTarget } from '../../lib/safe-redirect';
import { PATHS } from '../../lib/paths';

/**
 * Where to go once the guest exists (spec §4): vc_link when it is same-origin or on the configured meeting
 * domain; otherwise the previous page of this app; null when there is nowhere safe to go.
 */
export function guestTarget(input: {
  vcLink: string | null;
  from: unknown;
  referrer: string;
  meetOrigin: string | null;
}): { to: string; external: boolean } | null {
  const allowed = input.meetOrigin ? [input.meetOrigin] : [];
  const candidates: (string | null)[] = [
    input.vcLink,
    typeof input.from === 'string' ? input.from : null,
    input.referrer,
  ];
  for (const [index, raw] of candidates.entries()) {
    // Only vc_link may leave this origin (to the meeting domain); a referrer or state never does.
    const target = safeRedirectTarget(raw, index === 0 ? allowed : []);
    if (!target || target.startsWith(PATHS.guest)) continue;
    return { to: target, external: /^https?:\/\//.test(target) };
  }
  return null;
}

/** A vc_link to one of this app's meetings (`/meet/<room>`, same origin): its path, where the pre-join asks for the name. */
export function meetingPathOf(vcLink: string | null): string | null {
  const path = safeRedirectTarget(vcLink);
  return path && /^\/meet\/[^/?#]+(?:[?#]|$)/.test(path) ? path : null;
}
