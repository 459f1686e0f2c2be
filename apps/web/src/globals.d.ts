/** The year of the build (vite.config.ts `define`): the footer of a prerendered page shows it until hydrated. */
declare const __BUILD_YEAR__: number;
/** The compiled catalogs' one version and the namespaces (vite.config.ts `define`): lib/i18n.ts names the files. */
declare const __LOCALES__: { version: string; namespaces: string[] };
