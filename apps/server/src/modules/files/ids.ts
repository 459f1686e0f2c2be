import { randomBytes } from 'node:crypto';

/** 128 random bits, base64url: ids of files, share links, storage keys and quota holds. */
export const newId = () => randomBytes(16).toString('base64url');
