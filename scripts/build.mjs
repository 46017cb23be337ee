// Bundles the host entry points (our code and the packages every start loads: build-plugins.mjs; the others stay in
// node_modules) so `npm start` runs plain JavaScript. Skipped when dist/ was built from exactly the files there are now
// (build-manifest.mjs), which is checked before esbuild is even loaded; `--force` builds all the same.
import { buildIsCurrent, forgetBuild, ROOT, recordBuild } from './build-manifest.mjs';

if (!process.argv.includes('--force') && buildIsCurrent()) process.exit(0);

const { build } = await import('esbuild');
const { builtinsWithoutFacade, externalPackagesButStartOnes, REQUIRE_BANNER } = await import(
  './build-plugins.mjs'
);
const { default: lambdaPlugins } = await import('./lambda-esbuild-plugins.mjs');

const previous = forgetBuild();

/** Our code and the start's packages bundled; zod with English messages only, as in the Lambda bundles. */
const common = {
  absWorkingDir: ROOT,
  bundle: true,
  plugins: [builtinsWithoutFacade, externalPackagesButStartOnes, ...lambdaPlugins],
  banner: { js: REQUIRE_BANNER },
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
};

// Split into chunks: what is imported on demand (the Baileys engine, with the first session) stays out of the
// entry points' own files, so it is loaded only when used.
const gateway = await build({
  ...common,
  entryPoints: [
    'embedded/main.ts',
    'embedded/api-thread.ts',
    'host/main.ts',
    'host/migrate.ts',
    'host/recover-admin-key.ts',
  ],
  outbase: '.',
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});

// The auth-state adapters on their own, for tools that put them into a running gateway (the DynamoDB send
// benchmark, tests/bench/baileys-send-dynamodb.mjs), the SQLite data store with the search query parser (the
// history benchmark, tests/bench/history-search.mjs), the statistics use cases (tests/bench/stats.mjs) and the
// embedded queue (tests/bench/queue-receive.mjs); splitting keeps one copy of the code they share.
const tools = await build({
  ...common,
  entryPoints: [
    'shared/adapters/caching/caching-auth-state-store.ts',
    'shared/adapters/dynamodb/dynamodb-auth-state-store.ts',
    'shared/adapters/dynamodb/dynamodb-tables.ts',
    'shared/adapters/embedded-queue/open-embedded-queues.ts',
    'shared/adapters/sqlite/sqlite-stores.ts',
    'shared/domain/message-search.ts',
    'shared/use-cases/stats/message-stats.ts',
    'shared/use-cases/stats/session-message-stats.ts',
    'shared/use-cases/stats/stats-overview.ts',
  ],
  outbase: 'shared',
  outdir: 'dist/shared',
  splitting: true,
});

recordBuild([gateway.metafile, tools.metafile], previous);
