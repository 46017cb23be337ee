/**
 * MessageStatsStore on the data table: reads of the counter items dynamodb-message-stats.ts writes. Totals are one
 * BatchGetItem per 100 sessions; hours and days one Query per session over a sort-key range (at most 30 day items
 * for 30 days); chats one Query per session over the chats active in the kept window. Queries run side by side, a few
 * sessions at a time.
 */
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChatActivity, HourCounts, MessageTotals, TopChatWindow } from '#shared/domain/message-stats.js';
import type { MessageStatsStore } from '#shared/ports/message-stats-store.port.js';
import { bucketHour, chatStatsPk, daySk, hourSk, statsPk } from './dynamodb-message-stats.js';
import { chunks, deletePartition, guard, type Item, queryAll } from './dynamodb-support.js';

const STORE = 'Data store';
/** Sessions read at once. */
const PARALLEL = 16;

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** Runs `read` for each session, PARALLEL at a time, and concatenates what they answer. */
async function perSession<T>(
  sessionIds: readonly string[],
  read: (id: string) => Promise<T[]>,
): Promise<T[]> {
  const out: T[] = [];
  for (const batch of chunks(sessionIds, PARALLEL)) out.push(...(await Promise.all(batch.map(read))).flat());
  return out;
}

/** The counters in DynamoDB. */
export class DynamoDbMessageStatsStore implements MessageStatsStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  totals(sessionIds: readonly string[]): Promise<Map<string, MessageTotals>> {
    return guard(STORE, async () => {
      const found = new Map<string, MessageTotals>();
      for (const batch of chunks(sessionIds, 100)) {
        let keys: Record<string, unknown>[] = batch.map((id) => ({ pk: statsPk(id), sk: 'TOTAL' }));
        for (let attempt = 0; keys.length > 0; attempt++) {
          if (attempt > 8) throw new Error('DynamoDB left reads unprocessed');
          if (attempt > 0)
            await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
          const result = await this.doc.send(
            new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys } } }),
          );
          for (const item of result.Responses?.[this.table] ?? []) {
            found.set(String(item.pk).slice('STATS#'.length), {
              outgoing: num(item.o),
              incoming: num(item.i),
              failed: num(item.f),
            });
          }
          keys = result.UnprocessedKeys?.[this.table]?.Keys ?? [];
        }
      }
      return found;
    });
  }

  hours(sessionIds: readonly string[], fromHour: number, toHour: number): Promise<HourCounts[]> {
    return this.buckets(sessionIds, hourSk(fromHour), hourSk(toHour));
  }

  /** The hour or day items of each session between two sort keys. */
  private buckets(sessionIds: readonly string[], from: string, to: string): Promise<HourCounts[]> {
    return guard(STORE, () =>
      perSession(sessionIds, async (sessionId) => {
        const items = await queryAll(this.doc, {
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': statsPk(sessionId),
            ':from': from,
            ':to': to,
          },
        });
        return items.map((item) => hourCounts(sessionId, item));
      }),
    );
  }

  days(sessionIds: readonly string[], fromDay: number, toDay: number): Promise<HourCounts[]> {
    return this.buckets(sessionIds, daySk(fromDay), daySk(toDay));
  }

  topChats(
    sessionIds: readonly string[],
    window: { days: TopChatWindow; today: number },
    limit: number,
  ): Promise<ChatActivity[]> {
    const fromDay = window.today - window.days + 1;
    return guard(STORE, async () => {
      const chats = await perSession(sessionIds, async (sessionId) => {
        const items = await queryAll(this.doc, {
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': chatStatsPk(sessionId) },
        });
        return items.flatMap((item) => {
          let count = 0;
          for (const [name, value] of Object.entries(item)) {
            if (/^d\d+$/.test(name) && Number(name.slice(1)) >= fromDay) count += num(value);
          }
          return count > 0
            ? [{ sessionId, chatId: String(item.chatId), count, lastActive: num(item.lastAt) }]
            : [];
        });
      });
      return chats
        .sort((a, b) => b.count - a.count || b.lastActive - a.lastActive || (a.chatId < b.chatId ? -1 : 1))
        .slice(0, limit);
    });
  }

  deleteBySession(sessionId: string): Promise<void> {
    return guard(STORE, async () => {
      await deletePartition(this.doc, this.table, statsPk(sessionId));
      await deletePartition(this.doc, this.table, chatStatsPk(sessionId));
    });
  }
}

/** An hour or day item as HourCounts. */
function hourCounts(sessionId: string, item: Item): HourCounts {
  const byType: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith('t_')) byType[name.slice(2)] = num(value);
  }
  return {
    sessionId,
    hour: bucketHour(String(item.sk)),
    outgoing: num(item.o),
    incoming: num(item.i),
    failed: num(item.f),
    byType,
  };
}
