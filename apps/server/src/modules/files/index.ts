/** The files module's public entry: shared files and their share links. */
export { default } from './routes.js';
export { purgeAbandonedUploads } from './abandoned.js';
