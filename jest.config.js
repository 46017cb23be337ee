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
export default {
  // Most files here start servers, child processes and threads on a two-core machine that also runs the emulators;
  // a loaded CI machine took a gateway's start past jest's default 5 s in a setup hook or a test several times.
  testTimeout: 30_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/tests/contract/**/*.test.ts'] },
    { ...common, ...gateways, displayName: 'api', testMatch: ['<rootDir>/tests/api/**/*.test.ts'] },
    // One DynamoDB Local and one SQS emulator for the project (global setup); each test gateway gets its own tables,
    // queues and serverless offline child. Booting that child is most of a gateway's start, so the global setup also
    // runs a prewarm pool (tests/helpers/functions-pool.mjs): a gateway on the default functions takes a deployment
    // whose child is up already while the next one boots in the background (WAYGATE_TEST_PREWARM=0: none). The
    // setup file switches startTestGateway to the aws mode for this project only. Tests of what only the embedded
    // gateway has are skipped here with their reason (embeddedOnly).
    {
      ...common,
      displayName: 'api-aws',
      testMatch: ['<rootDir>/tests/api/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/helpers/offline-global-setup.mjs',
      globalTeardown: '<rootDir>/tests/helpers/offline-global-teardown.mjs',
      setupFilesAfterEnv: [CLOSE_STRAY, '<rootDir>/tests/helpers/offline-api-setup.ts'],
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
    { ...common, ...gateways, displayName: 'e2e', testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'] },
    // AWS adapters against DynamoDB Local (Java, from an npm package) and an SQS emulator from npm.
    { ...common, ...gateways, displayName: 'aws', testMatch: ['<rootDir>/tests/aws/**/*.test.ts'] },
    // The host image without Docker: the Dockerfile replayed (npm installs from the local cache, the bundle) and the
    // result started in the aws mode against the same emulators. Its own project: the one test that installs
    // packages, about half a minute, which `--selectProjects image` runs alone.
    { ...common, displayName: 'image', testMatch: ['<rootDir>/tests/image/**/*.test.ts'] },
  ],
};
