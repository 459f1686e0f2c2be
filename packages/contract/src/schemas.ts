/**
 * The response schemas alone (the web's lazySchema reads them by name). A module namespace read with a
 * computed name keeps every export of it in the build: read from the whole contract, that kept the
 * start-up path's constants, paths and helpers the web never uses in its first-load chunk too.
 */
import './zod-config.js';
export * from './schemas/common.js';
export * from './schemas/accounts.js';
export * from './schemas/meetings.js';
export * from './schemas/files.js';
export * from './schemas/config.js';
export * from './schemas/security.js';
export * from './admin.js';
