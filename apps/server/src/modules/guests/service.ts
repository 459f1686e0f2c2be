import { randomBytes } from 'node:crypto';
import type { GuestRequest, GuestResponse } from '@suite/contract';
import { AppError } from '../../errors.js';
import type { Db } from '../../db/database.js';
import { createGuestRepository, type GuestRow } from './repository.js';

// Control characters would only garble the name Jitsi shows to the other participants.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function toGuestResponse(row: GuestRow): GuestResponse {
  return {
    _id: row.id,
    name: row.name,
    accepted_terms: { version: row.terms_version as GuestResponse['accepted_terms']['version'] },
    created_at: new Date(row.created_at).toISOString(),
  };
}

export function createGuestService(db: Db) {
  const repo = createGuestRepository(db);
  return {
    async create(input: GuestRequest): Promise<GuestResponse> {
      const name = input.name.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
      if (!name) {
        throw new AppError('ERR_VALIDATION', { details: [{ path: 'name', message: 'required' }] });
      }
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
