/**
 * Boot against a slow or absent data store (spec Limits: "Data-store connect retry | 10 attempts, 3000 ms apart"):
 * the stores are opened (SQLite: the files created and migrated; DynamoDB: the clients) and both pinged, again and
 * again, DATA_STORE_CONNECT_ATTEMPTS times DATA_STORE_CONNECT_INTERVAL_MS apart, one log line per failed attempt.
 * When every attempt failed the boot ends with one message naming the variables that point at the store, since by
 * then it is a misconfiguration (a wrong endpoint, region or prefix; a folder the process may not write) more often
 * than an outage.
 */
import type { Env } from '#shared/config/env.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { Backends } from './backends.js';

/** Every attempt failed: the message names the variables to check and the last error. */
export class DataStoreUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataStoreUnreachableError';
  }
}

type StoreEnv = Pick<
  Env,
  | 'DEPLOYMENT_MODE'
  | 'DATA_STORE_CONNECT_ATTEMPTS'
  | 'DATA_STORE_CONNECT_INTERVAL_MS'
  | 'DYNAMODB_ENDPOINT'
  | 'AWS_REGION'
  | 'TABLE_PREFIX'
  | 'DATA_DIR'
  | 'DATABASE_NAME'
  | 'MAIN_DATABASE_NAME'
>;

/** Where the stores are, as the operator configured it: what the fatal message tells them to check. */
function whereTheStoresAre(env: StoreEnv): string {
  if (env.DEPLOYMENT_MODE === 'aws') {
    const endpoint = env.DYNAMODB_ENDPOINT ?? '(unset: the AWS endpoint of the region)';
    return (
      `DynamoDB did not answer: check DYNAMODB_ENDPOINT=${endpoint}, AWS_REGION=${env.AWS_REGION}, ` +
      `TABLE_PREFIX=${env.TABLE_PREFIX} (the tables <prefix>main and <prefix>data must exist) and the credentials`
    );
  }
  return (
    `the SQLite stores could not be opened: check DATA_DIR=${env.DATA_DIR} (it must be writable by this process), ` +
    `DATABASE_NAME=${env.DATABASE_NAME} and MAIN_DATABASE_NAME=${env.MAIN_DATABASE_NAME}`
  );
}

/** The error's message and its causes' (the stores wrap the driver's error: its code is what names the problem). */
function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 4; e = (e as { cause?: unknown }).cause) {
    if (!(e instanceof Error)) {
      parts.push(String(e));
      break;
    }
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message);
  }
  return parts.join(': ');
}

/**
 * Opens the stores with `open` and pings both; retries as configured. Resolves with stores that answered; rejects
 * with DataStoreUnreachableError once the attempts are spent.
 */
export async function connectStores(
  env: StoreEnv,
  logger: Logger,
  open: () => Promise<Backends>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<Backends> {
  const attempts = env.DATA_STORE_CONNECT_ATTEMPTS;
  const intervalMs = env.DATA_STORE_CONNECT_INTERVAL_MS;
  let last: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let opened: Backends | null = null;
    try {
      opened = await open();
      await Promise.all([opened.main.ping(), opened.data.ping()]);
      if (attempt > 1) logger.info({ attempt }, 'data store connected');
      return opened;
    } catch (error) {
      last = error;
      await opened?.close().catch(() => undefined);
      const retry = attempt < attempts;
      logger.warn(
        { attempt, attempts, err: messageOf(error) },
        retry
          ? `data store connect attempt ${attempt} of ${attempts} failed; retrying in ${intervalMs} ms`
          : `data store connect attempt ${attempt} of ${attempts} failed; giving up`,
      );
      if (retry) await sleep(intervalMs);
    }
  }
  throw new DataStoreUnreachableError(
    `Waygate cannot reach its data store after ${attempts} attempts ${intervalMs} ms apart: ` +
      `${whereTheStoresAre(env)}. Last error: ${messageOf(last)}`,
  );
}
