/** The meetings module's public entry: video conferences, their sessions and the Jitsi tokens. */
export { default } from './routes.js';
export { purgeOldLobbyRequests } from './lobby.js';
