import { randomBytes } from 'node:crypto';
import type { GuestRequest, GuestResponse } from '@suite/contract';
import { requireDisplayName } from '../../names.js';
import type { Db } from '../../db/database.js';
import { guestsRepository, type GuestRow } from './repository.js';

function toGuestResponse(row: GuestRow): GuestResponse {
  return {
    _id: row.id,
    name: row.name,
    accepted_terms: { version: row.terms_version as GuestResponse['accepted_terms']['version'] },
    created_at: new Date(row.created_at).toISOString(),
  };
}

export function createGuestService(db: Db) {
  const repo = guestsRepository(db.kysely);
  return {
    async create(input: GuestRequest): Promise<GuestResponse> {
      // Jitsi shows the name to the other participants: the contract's one display-name rule.
      const name = requireDisplayName(input.name, 'name');
      const row: GuestRow = {
        id: randomBytes(12).toString('hex'),
        name,
        terms_version: input.accepted_terms.version,
        created_at: Date.now(),
      };
      await repo.insert(row);
      return toGuestResponse(row);
    },
    find: (id: string) => repo.find(id),
  };
}

export type GuestService = ReturnType<typeof createGuestService>;
