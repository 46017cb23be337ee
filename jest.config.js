// Test tiers as jest projects: unit (no I/O beyond temp files), contract (one suite per port, every adapter),
// api (the HTTP API black-box over a real embedded server), wa-sim (the WhatsApp simulator), browser (pages in
// Debian's Chromium).
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
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/tests/contract/**/*.test.ts'] },
    { ...common, displayName: 'api', testMatch: ['<rootDir>/tests/api/**/*.test.ts'] },
    { ...common, displayName: 'wa-sim', testMatch: ['<rootDir>/tests/wa-sim/**/*.test.ts'] },
    { ...common, displayName: 'browser', testMatch: ['<rootDir>/tests/browser/**/*.test.ts'] },
    // The Baileys engine against the simulator in its own process. Trusting the simulator's root key patches
    // Baileys process-wide, so these files never share a worker with anything else.
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'] },
    // AWS adapters against DynamoDB Local (Java, from an npm package) and an SQS emulator from npm.
    { ...common, displayName: 'aws', testMatch: ['<rootDir>/tests/aws/**/*.test.ts'] },
  ],
};
