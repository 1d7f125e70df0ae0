// Three tiers of specs: unit specs beside the code (src/**/*.spec.ts); integration specs that run a few
// modules on the real database without HTTP (test/integration/**/*.int-spec.ts); and e2e specs that boot
// the real app (test/**/*.e2e-spec.ts). The last two run on two targets (embedded, and PostgreSQL + Redis).
const tsJest = (options) => [
  'ts-jest',
  {
    tsconfig: 'tsconfig.json',
    useESM: true,
    // Types are checked by `npm run typecheck` (and the build), once, not file by file here: in ESM
    // mode ts-jest computed every file's diagnostics and then dropped them.
    diagnostics: false,
    ...options,
  },
];

// A plain transpile per file, no type information: the unit specs (none reads the OpenAPI document) and
// the e2e specs themselves. (An object here is merged over tsconfig.json's compilerOptions.)
const transpileOnly = tsJest({ tsconfig: { isolatedModules: true } });

const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: __dirname,
  // Node's, waiting at the end of each file for what it left closing (environment.cjs); TEST_TIMING_FILE=path also
  // records each file's wall and CPU time there (timing-environment.cjs).
  testEnvironment: process.env.TEST_TIMING_FILE ? '<rootDir>/test/setup/timing-environment.cjs' : '<rootDir>/test/setup/environment.cjs',
  extensionsToTreatAsEsm: ['.ts'],
  // Sources import './x.js' (Node ESM style); Jest resolves those to the .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  resolver: '<rootDir>/test/setup/resolver.cjs',
  setupFiles: ['<rootDir>/test/setup/esm-instances.mjs'],
};

/**
 * Whether this run names what to run (a file pattern, --findRelatedTests, --onlyChanged…): then each e2e spec is a
 * test file of its own; a full run instead runs the groups of test/groups (the integration specs in one), each loading several spec files into one
 * module registry (test/setup/e2e-groups.ts: the same tests for about half the fixed CPU per file). E2E_PER_FILE=1
 * runs the spec files one by one in a full run too (to time them one by one); E2E_GROUPS=1 runs groups with a pattern
 * too (`E2E_GROUPS=1 npm test -- test/groups/3`, to run one group as a full run does).
 */
async function picksFiles() {
  if (process.env.E2E_PER_FILE === '1') return true;
  if (process.env.E2E_GROUPS === '1') return false;
  const { buildArgv } = require('jest-cli');
  const argv = await buildArgv(process.argv.slice(2));
  return (
    argv._.length > 0 ||
    Boolean(argv.testPathPatterns?.length || argv.findRelatedTests || argv.onlyChanged || argv.changedSince || argv.lastCommit || argv.runTestsByPath)
  );
}

const { ONE_TARGET, oneTarget } = require('./test/setup/one-target.cjs');
/** The one-target specs as path patterns (a file pattern run; a full run's groups leave them out themselves). */
const oneTargetPatterns = ['-browser\\.e2e-spec\\.ts$', ...ONE_TARGET.map((name) => `/test/${name}\\.e2e-spec\\.ts$`)];

const e2eFiles = (perFile) => (perFile ? ['<rootDir>/test/**/*.e2e-spec.ts'] : ['<rootDir>/test/groups/*.e2e-group.ts']);

const e2e = {
  ...common,
  transform: { '^.+\\.ts$': transpileOnly },
  // The app as built: the specs' imports of src/ load dist/, which global setup has just compiled with
  // the Swagger plugin (so the OpenAPI document under test is the real one, and what production runs),
  // instead of each worker compiling the sources again with the type checker.
  moduleNameMapper: { '^(?:\\.\\./)+src/(.*)\\.js$': '<rootDir>/dist/$1.js', ...common.moduleNameMapper },
  slowTestThreshold: 30,
  // Builds dist/ when stale, provides the migrated template database, names the run (see the files).
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
};

// The integration tier: as the e2e specs (the built app, the template database), a Nest testing module
// of the modules under test instead of the app (test/support/test-module.ts).
const integration = { ...e2e };
const integrationFiles = (perFile) => (perFile ? ['<rootDir>/test/integration/**/*.int-spec.ts'] : ['<rootDir>/test/groups/*.int-group.ts']);

module.exports = async () => {
  const perFile = await picksFiles();
  const e2eMatch = { testMatch: e2eFiles(perFile) };
  const integrationMatch = { testMatch: integrationFiles(perFile) };
  return {
    // Twice the 2 cores: many tests spend most of their time waiting (retry schedules, timeouts, the local model,
    // browsers), and the other workers run meanwhile (the embedded target, idle: 3 workers 4 min 42 s, 4 workers
    // 3 min 58 s, the same CPU; docs/development.md). Twelve groups of test/groups make three even rounds of four.
    maxWorkers: 4,
    testSequencer: '<rootDir>/test/setup/sequencer.cjs',
    // A worker that grew past this after a file is replaced by a fresh one: a worker that had run fifty suites held
    // gigabytes and at the end took longer to exit than Jest waits ("failed to exit gracefully").
    workerIdleMemoryLimit: '1GB',
    // A hang detector, not a speed check: a test that starts child servers (up to 90 s each, startChildServer) on a loaded
    // 2-core run needs minutes.
    testTimeout: 150_000,
    projects: [
      { ...common, displayName: 'unit', transform: { '^.+\\.ts$': transpileOnly }, testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'] },
      {
        ...integration,
        ...integrationMatch,
        displayName: 'integration-embedded',
        setupFiles: [...common.setupFiles, '<rootDir>/test/setup/target-embedded.cjs'],
      },
      ...(process.env.DATABASE_URL
        ? [
            {
              ...integration,
              ...integrationMatch,
              displayName: 'integration-postgres',
              setupFiles: [...common.setupFiles, '<rootDir>/test/setup/target-postgres.cjs'],
            },
          ]
        : []),
      // The whole e2e suite on the embedded default (PGlite, in-process queue, in-memory limits)...
      {
        ...e2e,
        ...e2eMatch,
        // ...but for the specs of test/setup/one-target.cjs, which run on PostgreSQL alone when it is configured.
        ...(perFile && oneTarget() === 'postgres' ? { testPathIgnorePatterns: ['/node_modules/', ...oneTargetPatterns] } : {}),
        displayName: 'e2e-embedded',
        setupFiles: [...common.setupFiles, '<rootDir>/test/setup/target-embedded.cjs'],
      },
      // ...and again on the real PostgreSQL and Redis when they are configured.
      ...(process.env.DATABASE_URL
        ? [{ ...e2e, ...e2eMatch, displayName: 'e2e-postgres', setupFiles: [...common.setupFiles, '<rootDir>/test/setup/target-postgres.cjs'] }]
        : []),
    ],
  };
};
