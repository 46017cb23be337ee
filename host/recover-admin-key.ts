/**
 * `npm run keys:recover [-- --name <name>]`: the way back in when no usable admin key is left (its plaintext lost,
 * expired, revoked or restricted by mistake). Mints a new unscoped admin key straight into the main store of this
 * configuration (the same variables as the gateway: the SQLite main store under DATA_DIR, or the DynamoDB main
 * table with DEPLOYMENT_MODE=aws), audits it, and prints the key on stdout once and alone, so it can be captured;
 * everything else goes to stderr. Anyone who can run this can already read the gateway's data, so it asks for
 * nothing more.
 *
 * Safe while the gateway runs: SQLite is in WAL mode with a busy timeout, and the gateway's key cache keeps no
 * unknown hashes, so the new key works on its first request.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { openAwsAdapters } from '#shared/adapters/aws/open-aws-adapters.js';
import { openSqliteMainStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { type Env, EnvError, loadEnv } from '#shared/config/env.js';
import { ApiKeyName } from '#shared/domain/api-key.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import type { MainStore } from '#shared/ports/stores.port.js';
import { mintRecoveryAdminKey, type RecoveryOrigin } from '#shared/use-cases/api-keys/recover-admin-key.js';
import { requireSupportedNode } from './node-runtime.js';

const USAGE = 'usage: npm run keys:recover [-- --name <key name>]\n';

const Args = z.strictObject({ name: ApiKeyName.optional() });

/** Exits with `code` after printing `message` on stderr. */
class Exit extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function readArgs(): z.infer<typeof Args> {
  let values: unknown;
  try {
    values = parseArgs({ options: { name: { type: 'string' } }, strict: true }).values;
  } catch (error) {
    throw new Exit(2, `${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const args = Args.safeParse(values);
  if (!args.success) throw new Exit(2, `${z.prettifyError(args.error)}\n${USAGE}`);
  return args.data;
}

function readEnv(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof EnvError) throw new Exit(1, error.message);
    throw error;
  }
}

/** The main store alone: the recovery touches neither the data store nor a queue. */
function openMainStore(env: Env): { store: MainStore; close(): Promise<void> } {
  if (env.DEPLOYMENT_MODE === 'aws') {
    const adapters = openAwsAdapters(env);
    return { store: adapters.main, close: () => adapters.close() };
  }
  const store = openSqliteMainStore(env.MAIN_DATABASE_NAME);
  return { store, close: () => store.close() };
}

function origin(): RecoveryOrigin {
  let osUser: string | null = null;
  try {
    osUser = os.userInfo().username;
  } catch {
    // A container user without a passwd entry has no name; the audit entry still names the host.
  }
  return { host: os.hostname(), osUser };
}

async function main(): Promise<void> {
  requireSupportedNode();
  const args = readArgs();
  const env = readEnv();
  const logger = pino({ level: env.LOG_LEVEL, base: { service: 'waygate' } }, pino.destination(2));
  const opened = openMainStore(env);
  try {
    const metrics = createMetrics();
    const audit = new AuditRecorder(opened.store.audit, systemClock, logger, metrics);
    const name = args.name ?? `recovery-${systemClock.now().toISOString().slice(0, 10)}`;
    const { plaintext, key } = await mintRecoveryAdminKey(
      { main: opened.store, audit, clock: systemClock },
      name,
      origin(),
    );
    // The audit entry is stored before the command reports success (close retries, then counts what it drops).
    await audit.close();
    if ((await metrics.auditEntriesDropped.get()).values.some((sample) => sample.value > 0)) {
      process.stderr.write(
        `The key was created but its audit entry could not be stored: check the main store and record this by hand.\n`,
      );
      process.exitCode = 1;
    }
    process.stderr.write(
      `Created the admin API key '${key.name}' (id ${key.id}, prefix ${key.keyPrefix}). ` +
        'It is printed on stdout this once; only its hash is stored.\n',
    );
    process.stdout.write(`${plaintext}\n`);
  } finally {
    await opened.close();
  }
}

try {
  await main();
} catch (error) {
  const exit = error instanceof Exit ? error : new Exit(1, `keys:recover failed: ${String(error)}`);
  process.stderr.write(`${exit.message.trimEnd()}\n`);
  process.exitCode = exit.code;
}
