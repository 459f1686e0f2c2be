import { config } from 'zod';

/**
 * In a browser, zod is told not to compile parsers with `new Function`: the web app's Content Security
 * Policy has no 'unsafe-eval', and zod's check for it (a caught `new Function`) is reported as a CSP
 * violation on every page that loads the schemas (Lighthouse: best practices). Parsing stays the same,
 * only not JIT-compiled; servers keep the JIT. Imported first by index.ts, before any schema is built.
 */
if (typeof document !== 'undefined') config({ jitless: true });
