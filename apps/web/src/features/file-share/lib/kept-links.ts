import { readJson, write, STORAGE_KEYS } from '../../../lib/storage';

/**
 * The addresses of the share links this browser created. The server keeps only a hash of a link's key
 * (it cannot give the address again), so the browser that made a link keeps its address, beside the
 * session, until the link is revoked or expires, or the person signs out (lib/session.ts).
 */
const all = (): Record<string, string> => readJson<Record<string, string>>(STORAGE_KEYS.shareLinks) ?? {};

export const keptLinks = {
  get: (linkId: string): string | undefined => all()[linkId],
  keep(linkId: string, url: string): void {
    write(STORAGE_KEYS.shareLinks, { ...all(), [linkId]: url });
  },
  /** Drops links that no longer work (revoked, expired, or their file deleted). */
  forget(linkIds: string[]): void {
    const kept = all();
    if (!linkIds.some((id) => id in kept)) return;
    for (const id of linkIds) delete kept[id];
    write(STORAGE_KEYS.shareLinks, kept);
  },
};
