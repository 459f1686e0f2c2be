import { Resolver } from 'node:dns/promises';
import { ADMIN_CHALLENGE_PREFIX } from '@suite/contract';

/** What the domain's challenge record says: the value is there, another one is, none is, or DNS did not answer. */
export type RecordCheck = 'found' | 'mismatch' | 'missing' | 'unavailable';

/** Answers that mean "there is no such record", as opposed to "the resolver could not tell". */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

export const challengeName = (domain: string) => `${ADMIN_CHALLENGE_PREFIX}.${domain}`;

/**
 * Reads `_suite-challenge.<domain>` TXT through DNS_SERVERS (host or host:port, [v6]:port) or the
 * system's resolvers. A TXT record split into strings is read joined; a CNAME is followed by the
 * resolver that answers. Bounded: 2 tries of 2 s.
 */
export async function checkChallenge(
  servers: readonly string[],
  domain: string,
  accepted: readonly string[],
): Promise<RecordCheck> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  let records: string[][];
  try {
    records = await resolver.resolveTxt(challengeName(domain));
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    return ABSENT.has(code) ? 'missing' : 'unavailable';
  }
  const values = records.map((chunks) => chunks.join('').trim());
  if (values.length === 0) return 'missing';
  return values.some((v) => accepted.includes(v)) ? 'found' : 'mismatch';
}
