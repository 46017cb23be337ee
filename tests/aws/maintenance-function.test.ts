/**
 * The maintenance function (aws mode's retention) against DynamoDB Local, on a test clock: each run removes the audit
 * entries and delivery failures older than their retention as the clock reads then, a day later what aged meanwhile,
 * and never a stored message however old (message history has no automatic purge).
 */
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { installDeps } from '#functions/deps.js';
import { handler } from '#functions/maintenance.js';
import { openDynamoDbDataStore, openDynamoDbMainStore } from '#shared/adapters/dynamodb/dynamodb-stores.js';
import { createTables, tableNames } from '#shared/adapters/dynamodb/dynamodb-tables.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { loadEnv } from '#shared/config/env.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aDeliveryFailure, aMessage, anAuditEntry, aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { useDynamoDbLocal } from './dynamodb-local.js';

const DAY_MS = 86_400_000;

const dynamo = useDynamoDbLocal();

it('prunes by the clock of each run, audit and failures each by its own retention, and keeps messages', async () => {
  const { client } = dynamo;
  const tablePrefix = `maint_${process.pid}_`;
  await createTables(client, tablePrefix);
  const main = openDynamoDbMainStore({ client, tablePrefix });
  const data = openDynamoDbDataStore({ client, tablePrefix });
  try {
    const clock = new TestClock();
    const daysAgo = (days: number) => new Date(clock.now().getTime() - days * DAY_MS).toISOString();
    const session = aSession();
    await data.sessions.create(session);
    const message = aMessage({ sessionId: session.id, createdAt: daysAgo(400) });
    await data.messages.insert(message);
    for (const days of [100, 59.5, 29.5, 5]) {
      await main.audit.append([anAuditEntry({ sessionName: `${days}d`, createdAt: daysAgo(days) })]);
      await data.deliveryFailures.insert(aDeliveryFailure({ event: `${days}d`, createdAt: daysAgo(days) }));
    }
    const env = loadEnv({ AUDIT_RETENTION_DAYS: '30', WEBHOOK_FAILURE_RETENTION_DAYS: '60' });
    // The maintenance function reads only these; the rest of the dependencies never comes into play.
    installDeps({
      env,
      clock,
      logger: silentLogger,
      main,
      data,
      media: new MemoryMediaStorage(),
    } as unknown as Parameters<typeof installDeps>[0]);
    const left = async () => ({
      audit: (await main.audit.query({}, { limit: 10, offset: 0 })).data.map((entry) => entry.sessionName),
      failures: (await data.deliveryFailures.list({}, { limit: 10, offset: 0 })).map(
        (failure) => failure.event,
      ),
    });

    await expect(handler()).resolves.toEqual({
      auditRemoved: 2,
      deliveryFailuresRemoved: 1,
      statusesRemoved: 0,
    });
    expect(await left()).toEqual({ audit: ['5d', '29.5d'], failures: ['5d', '29.5d', '59.5d'] });

    clock.advance(DAY_MS);
    await expect(handler()).resolves.toEqual({
      auditRemoved: 1,
      deliveryFailuresRemoved: 1,
      statusesRemoved: 0,
    });
    expect(await left()).toEqual({ audit: ['5d'], failures: ['5d', '29.5d'] });
    expect(await data.messages.findById(session.id, message.id)).toMatchObject({ id: message.id });
  } finally {
    await Promise.all([main.close(), data.close()]);
    const names = tableNames(tablePrefix);
    await Promise.all(
      [names.data, names.main].map((TableName) => client.send(new DeleteTableCommand({ TableName }))),
    );
  }
}, 60_000);
