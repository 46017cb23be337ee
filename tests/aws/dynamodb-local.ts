/**
 * Typed access to scripts/dynamodb-local.mjs from the TypeScript tests (the script is plain JS without
 * declarations, so it is imported dynamically and given its shape here).
 */
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

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

/**
 * DynamoDB Local for the tests of one file: started in its beforeAll with a client on it, both ended in its afterAll.
 * Read `client` inside the tests (it is set once beforeAll has run).
 */
export function useDynamoDbLocal(): { readonly client: DynamoDBClient } {
  let local: DynamoDbLocal | undefined;
  let client: DynamoDBClient | undefined;
  beforeAll(async () => {
    local = await startDynamoDbLocal();
    client = new DynamoDBClient({
      endpoint: local.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  }, 120_000);
  afterAll(async () => {
    client?.destroy();
    await local?.stop();
  });
  return {
    get client() {
      if (!client) throw new Error('DynamoDB Local is not started yet (read `client` inside a test)');
      return client;
    },
  };
}
