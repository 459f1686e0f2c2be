// First: zod's settings, before the schemas below are built.
import './zod-config.js';
export * from './constants.js';
export * from './meeting-constants.js';
export * from './sso-constants.js';
export * from './email.js';
export * from './errors.js';
export * from './paths.js';
export * from './api.js';
export * from './paths-accounts.js';
export * from './paths-security.js';
export * from './paths-meetings.js';
export * from './paths-files.js';
export * from './text.js';
export * from './language.js';
export * from './pages.js';
export * from './meeting-presence.js';
export * from './user-agent.js';
export * from './meeting-lobby.js';
// The schemas, as the schemas-only entry lists them.
export * from './schemas.js';
