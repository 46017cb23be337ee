// Bundles the host entry points (our code only; packages stay external) so `npm start` runs plain JavaScript.
import { build } from 'esbuild';

/** Our code bundled, packages left to node_modules. */
const common = {
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: true,
  logLevel: 'warning',
};

// Split into chunks: what is imported on demand (the Baileys engine, with the first session) stays out of the
// entry points' own files, so it is loaded only when used.
await build({
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
// benchmark, tests/bench/baileys-send-dynamodb.mjs), and the SQLite data store with the search query parser (the
// history benchmark, tests/bench/history-search.mjs); splitting keeps one copy of the code they share.
await build({
  ...common,
  entryPoints: [
    'shared/adapters/caching/caching-auth-state-store.ts',
    'shared/adapters/dynamodb/dynamodb-auth-state-store.ts',
    'shared/adapters/dynamodb/dynamodb-tables.ts',
    'shared/adapters/sqlite/sqlite-stores.ts',
    'shared/domain/message-search.ts',
  ],
  outbase: 'shared',
  outdir: 'dist/shared',
  splitting: true,
});
