import {
  MAX_TEAMMATES,
  TEAMMATE_NEXT_FIELD_AFTER_CHARS,
  emailDomain,
  isEmailShape,
  normalizeEmail,
} from '@suite/contract/core';

export type TeammateProblem = 'invalid' | 'duplicate' | 'domain';

/**
 * The full address of one field: what is typed plus the fixed `@domain` suffix. Someone who types a
 * whole address keeps it, so that another domain can be reported as such instead of as malformed.
 */
export function teammateAddress(local: string, domain: string): string {
  const typed = local.trim();
  return typed.includes('@') ? typed : `${typed}@${domain}`;
}

/**
 * What a name field keeps of what was typed or pasted: the field holds the name only, the "@domain" is its
 * fixed suffix. A pasted address of the inviter's domain is split (name kept); an "@" otherwise is refused
 * (`refused`: 'at' for a lone "@"; 'domain' for an address of another domain, kept as typed and reported).
 */
export function teammateLocal(input: string, domain: string): { local: string; refused: 'at' | 'domain' | null } {
  const at = input.indexOf('@');
  if (at < 0) return { local: input, refused: null };
  const local = input.slice(0, at).trim();
  const rest = input
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (!rest || domain.toLowerCase().startsWith(rest))
    return { local, refused: rest === domain.toLowerCase() ? null : 'at' };
  // Kept whole, so that it is not silently turned into a colleague's address: the check reports it.
  return { local: input, refused: 'domain' };
}

/** Spec §5: each address valid, no duplicates, the inviter's own domain. Empty fields are ignored. */
export function checkTeammates(
  locals: string[],
  domain: string,
): { emails: string[]; problems: (TeammateProblem | null)[] } {
  const seen = new Set<string>();
  const emails: string[] = [];
  const problems = locals.map((local): TeammateProblem | null => {
    if (!local.trim()) return null;
    const address = teammateAddress(local, domain);
    if (!isEmailShape(address)) return 'invalid';
    const normal = normalizeEmail(address);
    if (emailDomain(normal) !== domain) return 'domain';
    if (seen.has(normal)) return 'duplicate';
    seen.add(normal);
    emails.push(normal);
    return null;
  });
  return { emails, problems };
}

/** How many fields show: one more each time the last has 3 characters, up to 5 (spec §2, §9). */
export function visibleFields(locals: string[]): number {
  let shown = 1;
  while (shown < MAX_TEAMMATES && (locals[shown - 1]?.trim().length ?? 0) >= TEAMMATE_NEXT_FIELD_AFTER_CHARS) shown++;
  // A field that already holds text stays visible even when an earlier one was shortened.
  const lastFilled = locals.reduce((last, value, i) => (value.trim() ? i + 1 : last), 0);
  return Math.min(MAX_TEAMMATES, Math.max(shown, lastFilled));
}
