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

/** Starts DynamoDB Local in memory on a free port (fetching the emulator into node_modules/.cache once). */
export async function startDynamoDbLocal(): Promise<DynamoDbLocal> {
  const script = fileURLToPath(new URL('../../scripts/dynamodb-local.mjs', import.meta.url));
  const loaded = (await import(script)) as DynamoDbLocalScript;
  return loaded.startDynamoDbLocal({ port: 0 });
}
