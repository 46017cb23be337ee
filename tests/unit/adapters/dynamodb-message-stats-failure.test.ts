/**
 * A statistics counter that cannot be written never fails the write of the message it counts: DynamoDB stores the
 * message in its transaction, then bumps the counters; a counter write that fails (throttled, the table gone) is
 * reported to the store's hook and the insert still answers that the message was stored, so no caller takes a
 * stored message for a failed one.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from '@jest/globals';
import { DynamoDbMessageStore } from '#shared/adapters/dynamodb/dynamodb-message-store.js';
import { aMessage } from '#tests/helpers/builders.js';

/** A document client whose transactions succeed and whose counter updates (UpdateCommand) fail. */
function countersFailing() {
  const sent: string[] = [];
  const client = {
    async send(command: object) {
      sent.push(command.constructor.name);
      if (command instanceof UpdateCommand) throw new Error('ProvisionedThroughputExceededException');
      return {};
    },
  };
  return { client: client as unknown as DynamoDBDocumentClient, sent };
}

describe('DynamoDbMessageStore: statistics counters off the message write', () => {
  it('an insert whose counters fail still answers stored, and reports the failure', async () => {
    const { client, sent } = countersFailing();
    const failures: unknown[] = [];
    const store = new DynamoDbMessageStore(client, 'data', undefined, (error) => failures.push(error));
    const stored = await store.insert(aMessage({ direction: 'incoming', waMessageId: 'WA-1' }));
    expect(stored).toBe(true);
    expect(sent[0]).toBe('TransactWriteCommand');
    expect(sent.filter((name) => name === 'UpdateCommand').length).toBeGreaterThan(0);
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toContain('ProvisionedThroughputExceededException');
  });
});
