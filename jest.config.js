/** Unit suites sit beside the code (*.spec.ts); end-to-end suites under test/ (*.e2e-spec.ts)
 * start the built apps as real processes, so `npm test` builds first. */
const { availableParallelism } = require('node:os');
const moduleNameMapper = {
  '^@tps/contracts/dto$': '<rootDir>/libs/contracts/src/dto',
  '^@tps/database/testing$': '<rootDir>/libs/database/src/testing',
  '^@tps/(domain|contracts|delivery|database|testing|link|http|messaging|client|observability|background)$':
    '<rootDir>/libs/$1/src',
};
// Transpile only: with `isolatedModules` in tsconfig.json, ts-jest compiles each file on its own
// and checks no types (`npm run typecheck` does, in `npm test`); decorator metadata is still emitted.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };
/**
 * The cluster drills: end-to-end suites whose subject is several API replicas or simulator shards
 * on one PostgreSQL database, and the upgrade drills that build the previous commit as the
 * rolling restart does. They run in `npm run test:cluster`, apart from `npm test`.
 */
const CLUSTER_SUITES = [
  '/test/cluster-[^/]*\\.e2e-spec\\.ts$',
  '/test/(replica-routing|delivery-leases|simulator-shards|start-cluster|sqlite-upgrade)\\.e2e-spec\\.ts$',
];
/**
 * End-to-end suites whose own timing windows (a 200 ms webhook timeout, a p99 under 1 s, a 300 ms
 * heartbeat that a starved holder would miss) hold only with the machine to themselves, or whose
 * load (a thousand terminals linked at once) would starve the others': the project 'e2e-alone',
 * which `npm test` runs after the others, one file at a time (--runInBand).
 */
const ALONE_SUITES = [
  '/test/(delivery|delivery-fairness|one-simulator-per-share|hosted-caps)\\.e2e-spec\\.ts$',
  // The SQL snapshots: a loaded machine would send statements that timing decides more often.
  '/test/sql-snapshots\\.e2e-spec\\.ts$',
];
/** Both end-to-end projects start the built apps: a dist/ older than the sources fails them all at once. */
const endToEnd = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  globalSetup: '<rootDir>/test/dist-is-current.ts',
  globalTeardown: '<rootDir>/test/stop-left-running.ts',
  // Then, after each file, the logs of the apps it started are scanned for secrets and card numbers.
  setupFilesAfterEnv: ['<rootDir>/test/log-scan-setup.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform,
  moduleNameMapper,
};

module.exports = {
  testTimeout: 60000,
  // An end-to-end suite mostly waits on the apps it started (HTTP, links, timers), so on a small
  // machine twice as many workers as cores keep the cores busy; jest's default is one fewer than
  // the cores, a single worker on two.
  maxWorkers: Math.max(2, 2 * availableParallelism()),
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/bench', '<rootDir>/scripts'],
      testRegex: '\\.spec\\.ts$',
      moduleFileExtensions: ['ts', 'js', 'json'],
      transform,
      moduleNameMapper,
    },
    {
      ...endToEnd,
      displayName: 'e2e',
      testRegex: '\\.e2e-spec\\.ts$',
      testPathIgnorePatterns: [...CLUSTER_SUITES, ...ALONE_SUITES],
    },
    { ...endToEnd, displayName: 'e2e-alone', testRegex: ALONE_SUITES },
    { ...endToEnd, displayName: 'cluster', testRegex: CLUSTER_SUITES },
  ],
};
