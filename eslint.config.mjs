// ESLint (flat config): TypeScript-aware rules for the service, its tests and scripts. Formatting is
// Prettier's job (eslint-config-prettier turns off the rules that would fight it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Who is calling (Principal, @CurrentPrincipal) and what a route needs (@Scopes, the scope list) are the request's
// context, in src/common/request-context/: src/auth/ sets them, every module reads them, none imports auth for them.
const REQUEST_CONTEXT_FROM_AUTH = {
  group: ['**/auth/**'],
  importNames: [
    'Principal',
    'RequestWithPrincipal',
    'CurrentPrincipal',
    'Scopes',
    'REQUIRED_SCOPES',
    'SCOPES',
    'Scope',
    'GrantedScope',
    'ALL_SCOPES',
    'hasScope',
  ],
  message: 'Request context lives in src/common/request-context/ (principal.js, scopes.js, request-context.decorators.js), not in src/auth/.',
};

// The rate limiter and billing know each other only through contracts of src/common/ (AccountLimits, ApiRequestListener),
// which BillingBindingsModule binds.
const NOT_BILLING_AND_RATE_LIMIT =
  'src/rate-limit/ and src/billing/ do not import each other: use AccountLimits / ApiRequestListener (src/common/), bound in BillingBindingsModule.';

/** The no-restricted-imports rule for a file set: the patterns every file has, and `extra`. */
function restrictedImports(...extra) {
  return { 'no-restricted-imports': ['error', { patterns: [REQUEST_CONTEXT_FROM_AUTH, ...extra] }] };
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'libs/sdk/dist/',
      'libs/sdk/src/generated/',
      'bench/results/',
      'test/artifacts/',
      'data/',
      'libs/sdk-python/',
      // A web app's build output, committed as is (the app-hosting tests deploy it).
      'test/fixtures/spa/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits hides its failure; mark deliberate ones with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Decorated classes need their constructor parameters' runtime types for Nest's dependency injection.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // Module boundaries (docs/architecture.md, "The shape"). One no-restricted-imports entry per file set: a later
    // config object's entry replaces an earlier one's, so each set lists every pattern that applies to it.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    rules: restrictedImports(),
  },
  {
    files: ['src/rate-limit/**/*.ts'],
    rules: restrictedImports({ group: ['**/billing/**'], message: NOT_BILLING_AND_RATE_LIMIT }),
  },
  {
    files: ['src/billing/**/*.ts'],
    rules: restrictedImports({ group: ['**/rate-limit/**'], message: NOT_BILLING_AND_RATE_LIMIT }),
  },
  {
    // A migration does the same thing forever: it may not import code that changes (copy what it needs, frozen).
    files: ['src/database/migrations/**/*.ts'],
    rules: restrictedImports({
      regex: '^(?!typeorm$|\\./[^/]+$)',
      message: 'A migration imports only typeorm and sibling migrations: copy what it needs into it, frozen.',
    }),
  },
  {
    // Plain SQL goes through Transactions.query (src/database/transactions.ts): one path, prepared statements, the
    // running transaction's connection. TypeORM's repositories and query builders stay where they read naturally.
    files: ['src/**/*.ts'],
    ignores: ['src/database/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.property.name='query'][callee.object.property.name=/^(manager|dataSource|queryRunner)$/]",
          "CallExpression[callee.property.name='query'][callee.object.name=/^(manager|entityManager|dataSource|queryRunner|runner)$/]",
          "CallExpression[callee.property.name='query'][callee.object.callee.property.name='getRepository']",
          "CallExpression[callee.property.name='createQueryRunner']",
        ].map((selector) => ({ selector, message: 'Plain SQL goes through Transactions.query (src/database/transactions.ts), not through TypeORM.' })),
      ],
    },
  },
  {
    // Periodic work goes through PeriodicJobs (src/common/periodic/): role gating, no overlap, a shutdown deadline.
    files: ['src/**/*.ts'],
    ignores: ['src/common/periodic/**', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'setInterval', message: 'Periodic work is a job on PeriodicJobs (src/common/periodic/periodic-jobs.ts).' }],
    },
  },
  {
    // The service takes OpenAI's wire types from the `openai` package (a dev dependency) and never its client:
    // `import type` is erased from the build, so production installs run without it.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['openai', 'openai/*'],
              allowTypeImports: true,
              message: 'The service uses only the types of the openai package (a dev dependency): import type { … } from it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: { 'no-console': 'off' },
  },
  prettier,
);
