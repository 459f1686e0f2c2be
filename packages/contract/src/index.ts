// First: zod's settings, before the schemas below are built.
import './zod-config.js';
export * from './constants.js';
export * from './email.js';
export * from './errors.js';
export * from './paths.js';
export * from './text.js';
export * from './language.js';
export * from './pages.js';
export * from './meeting-presence.js';
export * from './meeting-lobby.js';
export * from './schemas/common.js';
export * from './schemas/accounts.js';
export * from './schemas/meetings.js';
export * from './schemas/files.js';
export * from './schemas/config.js';
export * from './schemas/security.js';
export * from './admin.js';
