/** The year of the build (vite.config.ts `define`): the footer of a prerendered page shows it until hydrated. */
declare const __BUILD_YEAR__: number;
