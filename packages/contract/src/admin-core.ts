/**
 * The zod-free part of the admin console's contract: constants, web and API paths, error catalogue
 * entries (the schemas, which need zod, stay in admin.ts). Each part has a file of its own: paths.ts
 * (in every screen's first load) reads the API paths only, so the bundler does not carry the constants
 * and the error texts into the entry chunk with them.
 */
export * from './admin-constants.js';
export * from './admin-errors.js';
export * from './admin-paths.js';
