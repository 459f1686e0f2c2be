/** The system module's public entry: health and the web app's runtime settings. */
export { default } from './routes.js';
