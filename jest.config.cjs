// Two projects: unit specs beside the code (src/**/*.spec.ts) and e2e specs that boot the real app (test/**/*.e2e-spec.ts).
const tsJest = [
  'ts-jest',
  {
    tsconfig: 'tsconfig.json',
    // The Swagger compiler plugin, as in scripts/build.mjs, so the OpenAPI document under test is the real one.
    astTransformers: {
      before: [
        {
          path: '<rootDir>/test/setup/swagger-plugin-transformer.cjs',
          options: { introspectComments: true, classValidatorShim: true, dtoFileNameSuffix: ['.dto.ts', '.entity.ts'] },
        },
      ],
    },
    useESM: true,
    // 151002: ts-jest's advice to use isolatedModules, which would leave the Swagger plugin without type information.
    diagnostics: { warnOnly: false, ignoreCodes: [151002] },
  },
];

const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  extensionsToTreatAsEsm: ['.ts'],
  // Sources import './x.js' (Node ESM style); Jest resolves those to the .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  resolver: '<rootDir>/test/setup/resolver.cjs',
  setupFiles: ['<rootDir>/test/setup/esm-instances.mjs'],
};

const e2e = { ...common, testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], slowTestThreshold: 30 };

module.exports = {
  maxWorkers: 2,
  testTimeout: 60_000,
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'] },
    // The whole e2e suite on the embedded default (PGlite, in-process queue, in-memory limits)...
    { ...e2e, displayName: 'e2e-embedded', setupFiles: [...common.setupFiles, '<rootDir>/test/setup/target-embedded.cjs'] },
    // ...and again on the real PostgreSQL and Redis when they are configured.
    ...(process.env.DATABASE_URL
      ? [{ ...e2e, displayName: 'e2e-postgres', setupFiles: [...common.setupFiles, '<rootDir>/test/setup/target-postgres.cjs'] }]
      : []),
  ],
};
