/** The guests module's public entry: guest creation, and the guest service the meetings module asks. */
export { default } from './routes.js';
export { createGuestService, type GuestService } from './service.js';
