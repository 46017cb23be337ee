/**
 * Typed access to scripts/dynamodb-local.mjs from the TypeScript tests (the script is plain JS without
 * declarations, so it is imported dynamically and given its shape here).
 */
import { fileURLToPath } from 'node:url';

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

interface DynamoDbLocalScript {
  startDynamoDbLocal(options: { port: number }): Promise<DynamoDbLocal>;
}

/**
 * The run's DynamoDB Local when the project's global setup started one (aws-project-setup.mjs; `stop` then leaves it
 * running for the other files, whose tables have prefixes of their own), else one started in memory on a free port
 * (fetching the emulator into node_modules/.cache once).
 */
export async function startDynamoDbLocal(): Promise<DynamoDbLocal> {
  const shared = process.env.WAYGATE_TEST_DYNAMODB_ENDPOINT;
  if (shared) return { endpoint: shared, stop: async () => {} };
  const script = fileURLToPath(new URL('../../scripts/dynamodb-local.mjs', import.meta.url));
  const loaded = (await import(script)) as DynamoDbLocalScript;
  return loaded.startDynamoDbLocal({ port: 0 });
}
