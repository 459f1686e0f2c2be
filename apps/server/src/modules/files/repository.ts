import type { Kysely, Selectable } from 'kysely';
import type { Database, FilesTable, FileSharesTable } from '../../db/schema.js';

export type FileRow = Selectable<FilesTable>;
export type ShareRow = Selectable<FileSharesTable>;

/** Queries of the files module; ownership is part of every owner-facing query. */
export function filesRepository(db: Kysely<Database>) {
  return {
    insertFile: (row: FileRow) => db.insertInto('files').values(row).execute(),

    listFiles: (ownerId: string) =>
      db
        .selectFrom('files')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),

    ownFile: (ownerId: string, fileId: string) =>
      db.selectFrom('files').selectAll().where('id', '=', fileId).where('owner_id', '=', ownerId).executeTakeFirst(),

    fileById: (fileId: string) => db.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirst(),

    /** The owner's name as a link's page shows it: only while the account is active. */
    ownerName: (ownerId: string) =>
      db
        .selectFrom('users')
        .select(['first_name', 'last_name'])
        .where('id', '=', ownerId)
        .where('active', '=', 1)
        .executeTakeFirst(),

    deleteFile: (fileId: string) => db.deleteFrom('files').where('id', '=', fileId).executeTakeFirst(),

    insertShare: (row: ShareRow) => db.insertInto('file_shares').values(row).execute(),

    listShares: (fileId: string) =>
      db
        .selectFrom('file_shares')
        .selectAll()
        .where('file_id', '=', fileId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),

    share: (fileId: string, shareId: string) =>
      db
        .selectFrom('file_shares')
        .selectAll()
        .where('id', '=', shareId)
        .where('file_id', '=', fileId)
        .executeTakeFirst(),

    /** Looked up by the key's hash (indexed, unique): the lookup's timing says nothing about the key. */
    shareByKeyHash: (keyHash: string) =>
      db.selectFrom('file_shares').selectAll().where('key_hash', '=', keyHash).executeTakeFirst(),

    revokeShare: (shareId: string, at: number) =>
      db
        .updateTable('file_shares')
        .set({ revoked_at: at })
        .where('id', '=', shareId)
        .where('revoked_at', 'is', null)
        .execute(),
  };
}
export type FilesRepository = ReturnType<typeof filesRepository>;
