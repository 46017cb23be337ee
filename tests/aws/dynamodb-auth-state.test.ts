/**
 * The DynamoDB auth-state store on DynamoDB Local: the AuthStateStore contract, bare and behind the cache
 * decorator, then what only this adapter promises: batches beyond one transaction go through a journal that a
 * fresh instance rolls forward, large values live in parts that rewrites clean up, queued writes share requests,
 * and wipe leaves nothing of the partition. Each store gets fresh tables under a unique prefix.
 */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { CachingAuthStateStore } from '#shared/adapters/caching/caching-auth-state-store.js';
import { commitJournal } from '#shared/adapters/dynamodb/dynamodb-auth-journal.js';
import { authPk, keyEntries, keySk } from '#shared/adapters/dynamodb/dynamodb-auth-layout.js';
import { DynamoDbAuthStateStore } from '#shared/adapters/dynamodb/dynamodb-auth-state-store.js';
import { queryAll } from '#shared/adapters/dynamodb/dynamodb-support.js';
import { createTables, tableNames } from '#shared/adapters/dynamodb/dynamodb-tables.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { AuthKeyChange, AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import { authStateStoreContract } from '#tests/contract/auth-state-store.contract.js';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.js';

jest.setTimeout(60_000);

const S = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const OTHER = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';

let local: DynamoDbLocal;
let client: DynamoDBClient;
let doc: DynamoDBDocumentClient;
let prefixes = 0;

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

beforeAll(async () => {
  local = await startDynamoDbLocal();
  client = new DynamoDBClient({ endpoint: local.endpoint, region: 'us-east-1', credentials });
  doc = DynamoDBDocumentClient.from(client);
}, 120_000);

afterAll(async () => {
  client?.destroy();
  await local?.stop();
});

/** Fresh tables under a new prefix; `drop` deletes them. */
async function freshTables(): Promise<{ tablePrefix: string; table: string; drop: () => Promise<void> }> {
  prefixes += 1;
  const tablePrefix = `auth${prefixes}_${process.pid}_`;
  await createTables(client, tablePrefix);
  const names = tableNames(tablePrefix);
  return {
    tablePrefix,
    table: names.data,
    drop: async () => {
      await Promise.all(
        [names.data, names.main].map((TableName) => client.send(new DeleteTableCommand({ TableName }))),
      );
    },
  };
}

function opened(wrap: (store: AuthStateStore) => AuthStateStore = (store) => store) {
  return async () => {
    const { tablePrefix, drop } = await freshTables();
    const store = wrap(new DynamoDbAuthStateStore({ client, tablePrefix }));
    return {
      store,
      close: async () => {
        await store.close();
        await drop();
      },
    };
  };
}

authStateStoreContract('dynamodb', opened());
authStateStoreContract(
  'caching(dynamodb)',
  opened((inner) => new CachingAuthStateStore(inner)),
);

/** Sort keys of every item in the session's partition, read raw (keys only, every page). */
async function partition(table: string, sessionId: string): Promise<string[]> {
  const items = await queryAll(doc, {
    TableName: table,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': authPk(sessionId) },
    ProjectionExpression: 'sk',
    ConsistentRead: true,
  });
  return items.map((item) => item.sk as string);
}

/** Runs `fn` with `probe` seeing each command sent through `client` (once per command, outside SDK retries). */
async function probing(probe: (command: string) => void, fn: () => Promise<void>): Promise<void> {
  const name = `probe-${Math.random()}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      probe(context.commandName ?? '?');
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await fn();
  } finally {
    client.middlewareStack.remove(name);
  }
}

/** DynamoDB requests sent through `client` while `fn` runs, by operation. */
async function countingRequests(fn: () => Promise<void>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await probing((command) => {
    counts[command] = (counts[command] ?? 0) + 1;
  }, fn);
  return counts;
}

/** Pre-keys `0` … `count - 1` with values `<prefix><id>`. */
const preKeys = (count: number, prefix: string): AuthKeyChange[] =>
  Array.from({ length: count }, (_, i) => ({ category: 'pre-key', id: String(i), value: `${prefix}${i}` }));

/** Text of `length` characters with multi-byte characters and surrogate pairs throughout. */
const bulky = (length: number, seed: string): string =>
  `${seed}|ä漢🙂`.repeat(Math.ceil(length / 8)).slice(0, length);

describe('DynamoDbAuthStateStore on DynamoDB Local', () => {
  let table: string;
  let tablePrefix: string;
  let drop: () => Promise<void>;
  let store: DynamoDbAuthStateStore;

  beforeEach(async () => {
    ({ table, tablePrefix, drop } = await freshTables());
    store = new DynamoDbAuthStateStore({ client, tablePrefix });
  });
  afterEach(async () => {
    await store.close();
    await drop();
  });

  it('writes a 1,000-key batch through the journal, all of it visible after the write and no journal left', async () => {
    await store.writeKeys(S, preKeys(10, 'old'));
    const counts = await countingRequests(() => store.writeKeys(S, preKeys(1000, 'value-')));
    // One journal put, ten transactions, one journal delete: far fewer requests than items.
    expect(counts.TransactWriteItemsCommand).toBe(10);
    expect(counts.PutItemCommand).toBe(1);
    expect(counts.DeleteItemCommand).toBe(1);
    const ids = Array.from({ length: 1001 }, (_, i) => String(i));
    const found = await new DynamoDbAuthStateStore({ client, tablePrefix }).readKeys(S, 'pre-key', ids);
    expect(found.size).toBe(1000);
    expect(found.get('0')).toBe('value-0');
    expect(found.get('999')).toBe('value-999');
    expect((await partition(table, S)).filter((sk) => !sk.startsWith('KEY#'))).toEqual([]);
  });

  it('stores a 1 MB value in parts, and a later smaller value leaves no stale part behind', async () => {
    const big = bulky(1024 * 1024, 'big');
    await store.writeKeys(S, [{ category: 'app-state-sync-version', id: 'regular', value: big }]);
    await store.writeCredentials(S, bulky(900 * 1024, 'creds'));
    const head = keySk('app-state-sync-version', 'regular');
    expect((await partition(table, S)).filter((sk) => sk.includes(head)).length).toBeGreaterThan(3);
    const fresh = new DynamoDbAuthStateStore({ client, tablePrefix });
    expect((await fresh.readKeys(S, 'app-state-sync-version', ['regular'])).get('regular')).toBe(big);
    expect(await fresh.readCredentials(S)).toBe(bulky(900 * 1024, 'creds'));

    // A fresh instance learns the parts from the table, so its rewrite cleans them up too.
    const medium = bulky(500 * 1024, 'medium');
    await fresh.writeKeys(S, [{ category: 'app-state-sync-version', id: 'regular', value: medium }]);
    expect((await store.readKeys(S, 'app-state-sync-version', ['regular'])).get('regular')).toBe(medium);
    await store.writeKeys(S, [{ category: 'app-state-sync-version', id: 'regular', value: 'small' }]);
    await fresh.writeCredentials(S, 'small creds');
    expect(await partition(table, S)).toEqual(['CREDS', head]);
    expect((await fresh.readKeys(S, 'app-state-sync-version', ['regular'])).get('regular')).toBe('small');
    await store.writeKeys(S, [{ category: 'app-state-sync-version', id: 'regular', value: big }]);
    await store.writeKeys(S, [{ category: 'app-state-sync-version', id: 'regular', value: null }]);
    expect(await partition(table, S)).toEqual(['CREDS']);
    await fresh.close();
  });

  it('rolls a committed but unapplied journal forward before a fresh instance answers, and drops uncommitted parts', async () => {
    await store.writeKeys(S, [
      { category: 'session', id: 'a', value: 'A0' },
      { category: 'session', id: 'gone', value: 'G' },
    ]);
    // A writer killed right after the commit point: the journal is stored, nothing of it applied.
    await commitJournal(
      { doc, table },
      authPk(S),
      keyEntries([
        { category: 'session', id: 'a', value: 'A1' },
        { category: 'session', id: 'gone', value: null },
        ...preKeys(150, 'p'),
      ]),
    );
    // And one killed before its commit point, leaving a part of a journal that has no head.
    await doc.send(
      new PutCommand({
        TableName: table,
        Item: { pk: authPk(S), sk: 'PART#JOURNAL#000000000000001#ab#1', v: 'x' },
      }),
    );
    expect((await partition(table, S)).some((sk) => sk.startsWith('JOURNAL#'))).toBe(true);

    const adopter = new DynamoDbAuthStateStore({ client, tablePrefix });
    expect(Object.fromEntries(await adopter.readKeys(S, 'session', ['a', 'gone']))).toEqual({ a: 'A1' });
    expect((await adopter.readKeys(S, 'pre-key', ['0', '149'])).size).toBe(2);
    const left = await partition(table, S);
    expect(left.filter((sk) => sk.startsWith('JOURNAL#') || sk.startsWith('PART#'))).toEqual([]);
    await adopter.close();
  });

  it('rolls a pending journal forward before a write, so the journal can never overwrite a later value', async () => {
    await commitJournal({ doc, table }, authPk(S), keyEntries(preKeys(120, 'journal')));
    const adopter = new DynamoDbAuthStateStore({ client, tablePrefix });
    await adopter.writeKeys(S, [{ category: 'pre-key', id: '7', value: 'later' }]);
    const found = await store.readKeys(S, 'pre-key', ['6', '7']);
    expect(Object.fromEntries(found)).toEqual({ '6': 'journal6', '7': 'later' });
    await adopter.close();
  });

  it('answers a read after the writes issued before it, also ones the caller did not await', async () => {
    await store.writeCredentials(S, 'before the link');
    const pending = [store.writeCredentials(S, 'linked'), store.writeKeys(S, preKeys(150, 'k'))];
    expect(await store.readCredentials(S)).toBe('linked');
    expect((await store.readKeys(S, 'pre-key', ['0', '149'])).size).toBe(2);
    await Promise.all(pending);
  });

  it('merges writes that queue up into one request, keeping their order', async () => {
    await store.writeKeys(S, [{ category: 'session', id: 'warm', value: 'w' }]);
    const counts = await countingRequests(async () => {
      await Promise.all([
        ...Array.from({ length: 20 }, (_, i) =>
          store.writeKeys(S, [{ category: 'session', id: 'k', value: `v${i}` }]),
        ),
        store.writeCredentials(S, 'creds'),
      ]);
    });
    const requests = Object.values(counts).reduce((sum, n) => sum + n, 0);
    expect(requests).toBeLessThanOrEqual(2);
    expect((await store.readKeys(S, 'session', ['k'])).get('k')).toBe('v19');
    expect(await store.readCredentials(S)).toBe('creds');
  });

  it('wipe removes every item of the partition, journals and parts included, and nothing of others', async () => {
    await store.writeCredentials(S, bulky(400 * 1024, 'c'));
    await store.writeKeys(S, preKeys(300, 'v'));
    await commitJournal({ doc, table }, authPk(S), [[keySk('x', 'y'), bulky(800 * 1024, 'j')]]);
    await store.writeKeys(OTHER, [{ category: 'session', id: 'a', value: 'kept' }]);
    expect((await partition(table, S)).length).toBeGreaterThan(300);
    await store.wipe(S);
    expect(await partition(table, S)).toEqual([]);
    expect(await store.hasCredentials(S)).toBe(false);
    expect((await store.readKeys(OTHER, 'session', ['a'])).get('a')).toBe('kept');
  });

  it('keeps keys whose names exceed a sort key apart, by digest', async () => {
    const long = 'x'.repeat(2000);
    await store.writeKeys(S, [
      { category: 'session', id: long, value: 'L' },
      { category: 'session', id: `${long}y`, value: 'LY' },
    ]);
    const found = await store.readKeys(S, 'session', [long, `${long}y`, `${long}z`]);
    expect(Object.fromEntries(found)).toEqual({ [long]: 'L', [`${long}y`]: 'LY' });
  });

  it('rejects a batch that failed before its commit point with nothing visible, and resolves one that failed after it', async () => {
    await store.writeKeys(S, [{ category: 'session', id: 'a', value: 'A' }]);
    let failNext: string | null = null;
    const inject = (command: string) => {
      if (command !== failNext) return;
      failNext = null;
      throw Object.assign(new Error('injected'), { name: 'InternalServerError' });
    };
    await probing(inject, async () => {
      // One transaction: the whole batch or nothing.
      failNext = 'TransactWriteItemsCommand';
      const pair = [
        { category: 'session', id: 'a', value: 'A2' },
        { category: 'session', id: 'b', value: 'B' },
      ];
      await expect(store.writeKeys(S, pair)).rejects.toBeInstanceOf(UnavailableError);
      expect(Object.fromEntries(await store.readKeys(S, 'session', ['a', 'b']))).toEqual({ a: 'A' });

      // Journal path, failing at its commit point (the journal's PutItem): rejected, nothing visible.
      failNext = 'PutItemCommand';
      await expect(store.writeKeys(S, preKeys(250, 'x'))).rejects.toMatchObject({ retryable: true });
      expect((await store.readKeys(S, 'pre-key', ['0', '249'])).size).toBe(0);

      // Failing after it (applying): the batch is durable, so the write resolves and the next read rolls it forward.
      failNext = 'TransactWriteItemsCommand';
      await store.writeKeys(S, preKeys(250, 'y'));
      expect((await partition(table, S)).some((sk) => sk.startsWith('JOURNAL#'))).toBe(true);
      const found = await store.readKeys(S, 'pre-key', ['0', '120', '249']);
      expect([...found.values()].sort()).toEqual(['y0', 'y120', 'y249']);
      expect((await partition(table, S)).filter((sk) => !sk.startsWith('KEY#'))).toEqual([]);
    });
  });

  it('reports an unreachable DynamoDB as a retryable UnavailableError', async () => {
    const unreachable = new DynamoDBClient({
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      credentials,
      maxAttempts: 1,
    });
    const down = new DynamoDbAuthStateStore({ client: unreachable, tablePrefix });
    await expect(down.readCredentials(S)).rejects.toBeInstanceOf(UnavailableError);
    await expect(down.writeKeys(S, [{ category: 'session', id: 'a', value: 'A' }])).rejects.toMatchObject({
      code: 'DEPENDENCY_UNAVAILABLE',
      retryable: true,
    });
    unreachable.destroy();
  });
});
