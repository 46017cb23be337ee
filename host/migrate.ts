/**
 * `npm run migration:run` (data store) and `npm run migration:run:main` (main store): applies pending migrations
 * and lists what ran. Boot runs the same migrations; this is for operators who migrate ahead of a rollout.
 */
import path from 'node:path';
import { queueMigrations } from '#shared/adapters/embedded-queue/queue.migrations.js';
import { DATA_STORE_MIGRATIONS } from '#shared/adapters/sqlite/data-store.migrations.js';
import { MAIN_STORE_MIGRATIONS } from '#shared/adapters/sqlite/main-store.migrations.js';
import { openSqlite, runMigrations } from '#shared/adapters/sqlite/sqlite-database.js';
import { loadEnv } from '#shared/config/env.js';
import { requireSupportedNode } from './node-runtime.js';

requireSupportedNode();

const target = process.argv[2];
const env = loadEnv();
const plans = {
  data: [
    { file: env.DATABASE_NAME, migrations: DATA_STORE_MIGRATIONS },
    { file: path.join(env.DATA_DIR, 'queue.sqlite'), migrations: queueMigrations },
  ],
  main: [{ file: env.MAIN_DATABASE_NAME, migrations: MAIN_STORE_MIGRATIONS }],
};
if (target !== 'data' && target !== 'main') {
  process.stderr.write('usage: migrate.js data|main\n');
  process.exit(2);
}
for (const { file, migrations } of plans[target]) {
  const db = openSqlite(file);
  const ran = runMigrations(db, migrations);
  db.close();
  process.stdout.write(`${file}: ${ran.length ? `applied ${ran.join(', ')}` : 'up to date'}\n`);
}
