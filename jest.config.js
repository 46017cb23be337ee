// Test tiers as jest projects: unit (no I/O beyond temp files), contract (one suite per port, every adapter),
// api (the HTTP API black-box over a real embedded server), api-aws (the same files against the aws mode:
// serverless offline serving serverless.yml's functions, an in-process host, DynamoDB Local and an SQS emulator),
// api-thread (a selection of the api files with the API in a worker thread of its own, API_THREAD=true),
// wa-sim (the WhatsApp simulator), browser (pages in Debian's Chromium), image (the host image, replayed).
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
  ],
};
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform,
  // TS sources import './x.js' and '#shared/x.js' (package.json `imports`); jest resolves them to the .ts files.
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^#(shared|host|embedded|functions|tests|scripts)/(.*)\\.js$': '<rootDir>/$1/$2',
  },
};
// Closes what a test file left open, so jest exits once the run is over (see the file).
const CLOSE_STRAY = '<rootDir>/tests/helpers/close-stray-gateways.ts';
const gateways = { setupFilesAfterEnv: [CLOSE_STRAY] };
// The API files that run through serverless offline too (project api-offline): together they answer every documented
// operation with a success, which that project's global teardown checks; mcp runs the SDK's client against the MCP
// function as serverless.yml declares it (its stack parameters mcpEnabled and mcpReadonly).
const API_OFFLINE_FILES = [
  'routes-tour',
  'infra-data-modes',
  'bad-input',
  'bad-input-routing',
  'bad-input-body-size',
  'ip-allowlist-proxy',
  'messages-media',
  'sessions-create',
  'mcp',
];
export default {
  // Each project's share of the run, printed at its end (.ci/run shows where CI's time goes).
  reporters: ['default', '<rootDir>/tests/helpers/project-times-reporter.mjs'],
  // Longest files first, from the committed durations where this machine has none cached (a clean clone).
  testSequencer: '<rootDir>/tests/helpers/duration-sequencer.mjs',
  // Most files here start servers, child processes and threads on a two-core machine that also runs the emulators;
  // a loaded CI machine took a gateway's start past jest's default 5 s in a setup hook or a test several times.
  testTimeout: 30_000,
  // Two files at a time on CI's two cores: most files wait on child processes, emulators, timers and sockets more
  // than they compute, so two workers took the run from 1,365 s to 859 s here. Timing assertions allow for it.
  maxWorkers: 2,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/tests/contract/**/*.test.ts'] },
    { ...common, ...gateways, displayName: 'api', testMatch: ['<rootDir>/tests/api/**/*.test.ts'] },
    // The same files against the aws mode: fresh tables, queues and bucket per test gateway on one DynamoDB Local,
    // SQS emulator and S3 emulator (global setup, shared with api-offline), the host in the test process, and the
    // functions' handlers in-process with the dependencies a Lambda builds (tests/helpers/inprocess-functions.ts), so
    // a gateway costs no process start. The setup file switches startTestGateway to the aws mode for these projects
    // only. Tests of what only the embedded gateway has are skipped here with their reason (embeddedOnly).
    {
      ...common,
      displayName: 'api-aws',
      testMatch: ['<rootDir>/tests/api/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/helpers/aws-global-setup.mjs',
      globalTeardown: '<rootDir>/tests/helpers/aws-global-teardown.mjs',
      setupFilesAfterEnv: [CLOSE_STRAY, '<rootDir>/tests/helpers/offline-api-setup.ts'],
    },
    // A selection of the API files with the functions served by serverless offline from serverless.yml (its routes,
    // its packaged bundles, API Gateway's events), a prewarm pool keeping the next deployment up
    // (tests/helpers/functions-pool.mjs). The selection reaches every documented operation with a success: the
    // route ledger of its global teardown fails a full run of the project that does not (tests/helpers/route-ledger.mjs).
    {
      ...common,
      displayName: 'api-offline',
      testMatch: API_OFFLINE_FILES.map((name) => `<rootDir>/tests/api/${name}.test.ts`),
      globalSetup: '<rootDir>/tests/helpers/offline-global-setup.mjs',
      globalTeardown: '<rootDir>/tests/helpers/offline-global-teardown.mjs',
      setupFilesAfterEnv: [
        CLOSE_STRAY,
        '<rootDir>/tests/helpers/offline-api-setup.ts',
        '<rootDir>/tests/helpers/serverless-offline-setup.ts',
        '<rootDir>/tests/helpers/route-ledger-setup.ts',
      ],
    },
    // The embedded gateway with API_THREAD=true (the API in a worker thread, the host in the main thread): the files
    // whose routes reach the host (operations, send outcomes, webhooks, metrics, audit), run across that boundary.
    {
      ...common,
      displayName: 'api-thread',
      testMatch: [
        'audit-read-after-write',
        'health',
        'messages',
        'messages-batches',
        'messages-idempotency',
        'send-template',
        'sessions-delete',
        'sessions-lifecycle',
        'webhooks',
      ].map((name) => `<rootDir>/tests/api/${name}.test.ts`),
      setupFilesAfterEnv: [CLOSE_STRAY, '<rootDir>/tests/helpers/api-thread-setup.ts'],
    },
    { ...common, displayName: 'wa-sim', testMatch: ['<rootDir>/tests/wa-sim/**/*.test.ts'] },
    { ...common, ...gateways, displayName: 'browser', testMatch: ['<rootDir>/tests/browser/**/*.test.ts'] },
    // The Baileys engine against the simulator in its own process. Trusting the simulator's root key patches
    // Baileys process-wide, so these files never share a worker with anything else.
    // The gateways they spawn run dist/'s bundle, built once by the global setup (tests/helpers/run-builds.mjs).
    {
      ...common,
      ...gateways,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/helpers/e2e-global-setup.mjs',
    },
    // AWS adapters against DynamoDB Local (Java, from an npm package) and an SQS emulator from npm; multi-node
    // clusters on the emulators of the run, running the host bundle and the functions' zips built once for it.
    {
      ...common,
      ...gateways,
      displayName: 'aws',
      testMatch: ['<rootDir>/tests/aws/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/helpers/aws-project-setup.mjs',
      globalTeardown: '<rootDir>/tests/helpers/aws-project-teardown.mjs',
    },
    // The host image without Docker: the Dockerfile replayed (npm installs from the local cache, the bundle) and the
    // result started in the aws mode against the same emulators. Its own project: the one test that installs
    // packages, about half a minute, which `--selectProjects image` runs alone.
    { ...common, displayName: 'image', testMatch: ['<rootDir>/tests/image/**/*.test.ts'] },
  ],
};
