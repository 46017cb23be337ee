/**
 * Transactions on one session's counter item can be cancelled by DynamoDB only because another transaction held it
 * (TransactionConflict, which DynamoDB Local never produces): the scoped items retry those, and judge a failed
 * condition at once.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from '@jest/globals';
import { DynamoDbScopedItems } from '#shared/adapters/dynamodb/dynamodb-scoped-items.js';
import type { Webhook } from '#shared/domain/webhook.js';
import { webhookLimitReached } from '#shared/ports/webhook-store.port.js';
import { aWebhook } from '#tests/helpers/builders.js';

function cancelled(...codes: string[]): Error {
  return Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

/** A document client whose sends fail with `failures` in turn, then succeed; it counts the sends. */
function scriptedClient(...failures: Error[]) {
  const client = {
    sends: 0,
    async send() {
      client.sends += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return {};
    },
  };
  return client;
}

function itemsOn(client: ReturnType<typeof scriptedClient>) {
  return new DynamoDbScopedItems<Webhook>(client as unknown as DynamoDBDocumentClient, 'data', {
    family: 'WEBHOOKS',
    kind: 'WEBHOOK',
    what: 'webhook',
    fromItem: (item) => item as Webhook,
    limitReached: webhookLimitReached,
  });
}

describe('DynamoDbScopedItems transactions', () => {
  it('sends a create again while it is cancelled for a transaction conflict only', async () => {
    const client = scriptedClient(
      cancelled('None', 'TransactionConflict', 'None'),
      cancelled('None', 'TransactionConflict', 'None'),
    );
    await itemsOn(client).create(aWebhook(), { maxPerSession: 16 });
    expect(client.sends).toBe(3);
  });

  it('judges a failed condition at once, even next to a conflict', async () => {
    const client = scriptedClient(cancelled('None', 'ConditionalCheckFailed', 'TransactionConflict'));
    await expect(itemsOn(client).create(aWebhook(), { maxPerSession: 1 })).rejects.toMatchObject({
      code: 'WEBHOOK_LIMIT',
    });
    expect(client.sends).toBe(1);
  });

  it('gives up after five conflicts, leaving the error to the store (a retryable 503)', async () => {
    const conflict = () => cancelled('TransactionConflict', 'None');
    const client = scriptedClient(conflict(), conflict(), conflict(), conflict(), conflict());
    await expect(itemsOn(client).delete('s1', 'w1')).rejects.toMatchObject({
      name: 'TransactionCanceledException',
    });
    expect(client.sends).toBe(5);
  });
});
