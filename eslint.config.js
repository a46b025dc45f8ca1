import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';

const featuresDir = 'apps/web/src/features';
const features = fs.existsSync(featuresDir) ? fs.readdirSync(featuresDir) : [];
const modulesDir = 'apps/server/src/modules';
const modules = fs.existsSync(modulesDir)
  ? fs
      .readdirSync(modulesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
/**
 * A server module's public face: its service.ts, and for the engine and the ledger the few files the
 * money rules live in (guards, lifecycle, postings, reconciliation). Everything else is internal.
 */
const MODULE_PUBLIC = ['engine/guards.ts', 'engine/lifecycle.ts', 'ledger/postings.ts', 'ledger/reconcile.ts'];
const modulePublic = (m) => [
  `./${m}`,
  ...modules.filter((o) => o !== m).map((o) => `./${o}/service.ts`),
  ...MODULE_PUBLIC.filter((f) => !f.startsWith(`${m}/`)).map((f) => `./${f}`),
];
/** Contracts modules without zod: the payment form's bundle may carry their code (types of the others only). */
const ZOD_FREE_CONTRACTS = ['card', 'countdown', 'money', 'phone', 'statuses', 'dates', 'exact-json'];

// Import boundaries (docs/architecture.md, "Layout and boundaries"), on resolved paths so that relative imports count too:
// app → features → components/lib; features never import each other; the web never imports the server;
// the payment form carries nothing of the back-office; a server module reaches another only through its service.
const sharedZones = [
  { target: 'apps/web', from: 'apps/server', message: 'The web never imports the server.' },
  { target: 'apps/server', from: 'apps/web', message: 'The server never imports the web.' },
  { target: 'packages/contracts', from: 'apps', message: 'contracts depend on nothing of the apps.' },
  ...features.map((f) => ({
    target: `${featuresDir}/${f}`,
    from: featuresDir,
    except: [`./${f}`],
    message: 'Features never import each other; move shared code to components/ or lib/.',
  })),
  { target: featuresDir, from: 'apps/web/src/app', message: 'Features do not import the app shell.' },
  {
    target: ['apps/web/src/components', 'apps/web/src/lib'],
    from: [featuresDir, 'apps/web/src/app'],
    message: 'Shared code never imports features or the app shell.',
  },
  {
    target: 'apps/web/src/payment-form',
    from: ['apps/web/src/app', featuresDir, 'apps/web/src/components', 'apps/web/src/lib'],
    message: 'The payment form is its own small bundle: contracts and its own code only.',
  },
];
const moduleZones = [
  ...modules.map((m) => ({
    target: `${modulesDir}/${m}`,
    from: modulesDir,
    except: modulePublic(m),
    message: `A server module reaches another only through its service.ts (or ${MODULE_PUBLIC.join(', ')}).`,
  })),
];

const serverPackages = {
  group: ['@paydesk/server', '@paydesk/server/*'],
  message: 'The web never imports the server.',
};
const boundaries = [
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      // the files an import leads to are TypeScript: parsed with the same parser, to follow their own imports
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      // packages are not followed: no cycle runs through them, and parsing their bundles costs seconds
      'import/ignore': ['node_modules'],
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: [...sharedZones, ...moduleZones] }],
      // no module may, through its imports, end up importing itself: an import cycle makes the order modules
      // initialise in matter, and ties two modules into one. Type-only imports are erased and do not count.
      // disableScc: the plugin's strongly-connected-components shortcut crashes on a file linted from text that is
      // not on disk (the fixtures of scripts/lint-boundaries.test.ts); without it the whole lint takes about as long.
      'import/no-cycle': ['error', { ignoreExternal: true, disableScc: true }],
    },
  },
  {
    // tests may drive a module's internals (a worker tick, the demo receiver); the other boundaries hold
    files: ['**/*.test.{ts,tsx}', '**/*.testkit.ts'],
    rules: { 'import/no-restricted-paths': ['error', { zones: sharedZones }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [serverPackages] }] },
  },
  {
    files: ['apps/web/src/payment-form/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            serverPackages,
            {
              group: ['@mantine/*', '@tanstack/*', '@tabler/*', 'zod', 'zod/*'],
              message: 'The payment form is its own small bundle: contracts and its own code only.',
            },
            {
              regex: `^@paydesk/contracts(?!/(${ZOD_FREE_CONTRACTS.join('|')})$)`,
              allowTypeImports: true,
              message: `The payment form takes only types from contracts modules with zod; code only from ${ZOD_FREE_CONTRACTS.join(', ')}.`,
            },
          ],
        },
      ],
    },
  },
  {
    // routes are thin: validate, resolve the caller and its merchant, call a service; the database is the services'
    files: ['apps/server/src/modules/*/routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['drizzle-orm', 'drizzle-orm/*', '**/db/schema'], message: 'Routes never query the database.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          // ctx.db.select(…), ctx.db.execute(…), ctx.dbh.pool…: handing ctx.db to a service is fine
          selector:
            "MemberExpression[object.type='MemberExpression'][object.object.name='ctx'][object.property.name=/^(db|dbh)$/]",
          message: 'Routes never query the database: call a service.',
        },
      ],
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@paydesk/server*', '@paydesk/web*', 'react', 'fastify'],
              message: 'contracts depend on nothing of the apps.',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/.tmp/**',
      'test-results/**',
      'playwright-report/**',
      '**/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // tests read untyped JSON responses
    files: ['**/*.test.{ts,tsx}', 'apps/server/test/**', 'e2e/**', '**/bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...boundaries,
);
