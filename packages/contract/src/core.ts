/** The zod-free part of the contract: safe to import from the web app's start-up path. */
export * from './constants.js';
export * from './email.js';
export * from './errors.js';
export * from './paths.js';
export * from './admin-paths.js';
export * from './text.js';
export * from './language.js';
export * from './pages.js';
export * from './meeting-presence.js';
export * from './user-agent.js';
export type * from './schemas/common.js';
export type * from './schemas/accounts.js';
export type * from './schemas/meetings.js';
export type * from './schemas/files.js';
export type * from './schemas/config.js';
export type * from './schemas/security.js';
