import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import vitest from '@vitest/eslint-plugin';
import playwright from 'eslint-plugin-playwright';
import globals from 'globals';

const folders = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const webFeatures = folders('apps/web/src/features');
const serverModules = folders('apps/server/src/modules');
const server = './apps/server/src';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.tmp/**',
      'e2e/fixtures/jitsi/**',
      'bench/results/**',
      'bench/out/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },

  // Layout boundaries: resolve relative TypeScript imports (written with or without `.js`).
  {
    files: [
      'apps/web/src/**/*.{ts,tsx}',
      'apps/server/src/**/*.ts',
      'apps/server/bin/**/*.ts',
      'packages/contract/src/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        importX.createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
          conditionNames: ['source', 'import', 'default'],
        }),
      ],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  // Web: features are one-way leaves (bulletproof-react): a feature never imports another feature or the
  // app shell; shared components and lib never import features or the app shell.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message: 'A web feature never imports another feature: move the shared part to components/ or lib/.',
            })),
            {
              target: './apps/web/src/features',
              from: './apps/web/src/app',
              message: 'Features never import the app shell (src/app).',
            },
            {
              target: ['./apps/web/src/components', './apps/web/src/lib'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'Shared components and lib never import features or the app shell.',
            },
          ],
        },
      ],
    },
  },
  // Server (fastify/demo, Kratos): a module is reached only through its entry file (modules/<m>/index.ts),
  // by other modules, jobs, app.ts and bin/; plugins and db sit below modules and jobs and never import them.
  {
    files: ['apps/server/src/**/*.ts', 'apps/server/bin/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...serverModules.map((module) => ({
              target: [
                ...serverModules.filter((other) => other !== module).map((other) => `${server}/modules/${other}`),
                `${server}/modules/index.ts`,
                `${server}/jobs`,
                `${server}/app.ts`,
                './apps/server/bin',
              ],
              from: `${server}/modules/${module}`,
              except: ['./index.ts'],
              message: `Import the ${module} module through its entry file, modules/${module}/index.ts.`,
            })),
            {
              target: [`${server}/plugins`, `${server}/db`],
              from: [`${server}/modules`, `${server}/jobs`],
              message: 'Plugins and db sit below modules and jobs: they never import them.',
            },
          ],
        },
      ],
    },
  },

  // Test honesty: a test with no assertion fails lint.
  {
    files: ['apps/**/*.test.{ts,tsx}', 'packages/**/*.test.ts', 'bench/**/*.test.{ts,mjs}'],
    plugins: { vitest },
    rules: { 'vitest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*', 'assert'] }] },
  },
  {
    // `expect(getBy…(…)).toBeTruthy()` cannot fail (getBy throws first): assert what the person sees.
    files: ['apps/web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='toBeTruthy']",
          message: 'Assert what the person sees: toBeVisible(), toHaveTextContent(), toBeChecked()…',
        },
      ],
    },
  },
  {
    files: ['e2e/tests/**/*.spec.ts'],
    plugins: { playwright },
    rules: {
      'playwright/expect-expect': ['error', { assertFunctionNames: ['expect*', 'check*', 'assert*'] }],
      // Wait for an event or poll with a bound, never for a fixed time.
      'playwright/no-wait-for-timeout': 'error',
    },
  },
);
