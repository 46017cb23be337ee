/**
 * StatusStore on the data table: one partition per session (pk `STATUSES#<sessionId>`, sk `STATUS#<statusId>`, which
 * keeps the network id unique per session). gsi1 (gsi1pk `STATUSES#<sessionId>`, gsi1sk the inverted posting time
 * and the id) reads a session's newest first; gsi2 (gsi2pk `STATUS-EXPIRY`, gsi2sk the expiry time, zero-padded, and
 * the keys) finds what expired across sessions for the sweep. Reads filter on `expiresAt`, so an expired status is
 * never answered before the sweep (or, as a backstop a week later, DynamoDB TTL) removes it. A contact's status is
 * written with its outbox entry and the session check in one transaction.
 */
import { DeleteCommand, type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '#shared/domain/common.js';
import { MediaMetadata } from '#shared/domain/message-metadata.js';
import { type StatusRecord, StatusType } from '#shared/domain/status-update.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { StatusQuery, StatusStore } from '#shared/ports/status-store.port.js';
import { outboxItem, outboxTaken } from './dynamodb-event-outbox.js';
import {
  batchDelete,
  cancellationCodes,
  deletePartition,
  failedAt,
  getItem,
  guard,
  type Item,
  putNew,
  queryOffset,
  sessionExistsCheck,
} from './dynamodb-support.js';

const STORE = 'Data store';
const EXPIRY = 'STATUS-EXPIRY';
const TIME_DIGITS = 16;
/** How long after its expiry DynamoDB TTL may drop an item the sweep missed (its file is then orphaned). */
const TTL_GRACE_SECONDS = 7 * 86_400;

const partition = (sessionId: string) => `STATUSES#${sessionId}`;
const statusKey = (sessionId: string, statusId: string) => ({
  pk: partition(sessionId),
  sk: `STATUS#${statusId}`,
});
const padded = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(TIME_DIGITS, '0');

function toItem(status: StatusRecord): Item {
  return {
    ...statusKey(status.sessionId, status.statusId),
    gsi1pk: partition(status.sessionId),
    gsi1sk: `${padded(10 ** TIME_DIGITS - 1 - status.postedAt)}#${status.statusId}`,
    gsi2pk: EXPIRY,
    gsi2sk: `${padded(status.expiresAt)}#${status.sessionId}#${status.statusId}`,
    ttl: Math.floor(status.expiresAt / 1000) + TTL_GRACE_SECONDS,
    ...status,
  };
}

const stringOr = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);

function toStatus(item: Item): StatusRecord {
  const media = MediaMetadata.safeParse(item.media);
  return {
    sessionId: String(item.sessionId),
    statusId: String(item.statusId),
    contactId: String(item.contactId),
    pushName: stringOr(item.pushName),
    fromMe: item.fromMe === true,
    type: StatusType.catch('text').parse(item.type),
    text: stringOr(item.text),
    caption: stringOr(item.caption),
    backgroundColor: stringOr(item.backgroundColor),
    font: typeof item.font === 'number' ? item.font : null,
    media: media.success ? media.data : null,
    mediaPath: stringOr(item.mediaPath),
    recipients: Array.isArray(item.recipients) ? item.recipients.map(String) : [],
    postedAt: numberOr(item.postedAt, 0),
    expiresAt: numberOr(item.expiresAt, 0),
  };
}

/** StatusStore on the data table. */
export class DynamoDbStatusStore implements StatusStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  insert(status: StatusRecord, outbox?: (status: StatusRecord) => OutboxEntry): Promise<boolean> {
    return guard(STORE, async () => {
      const event = outbox ? [putNew(this.table, outboxItem(outbox(status)))] : [];
      const items = [sessionExistsCheck(this.table, status.sessionId), putNew(this.table, toItem(status))];
      try {
        await this.doc.send(new TransactWriteCommand({ TransactItems: [...items, ...event] }));
        return true;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (failedAt(codes, 0))
          throw new NotFoundError(`Session ${status.sessionId} not found`, { cause: error });
        // The network delivered the post twice: the expected duplicate.
        if (failedAt(codes, 1)) return false;
        if (event.length > 0 && failedAt(codes, 2)) throw outboxTaken();
        throw error;
      }
    });
  }

  find(sessionId: string, statusId: string, now: number): Promise<StatusRecord | null> {
    return guard(STORE, async () => {
      const item = await getItem(this.doc, this.table, statusKey(sessionId, statusId));
      const status = item ? toStatus(item) : null;
      return status && status.expiresAt > now ? status : null;
    });
  }

  list(query: StatusQuery, page: Page): Promise<StatusRecord[]> {
    return guard(STORE, async () => {
      const posters = query.contactId ?? [];
      const names = posters.map((_, i) => `:c${i}`);
      const byPoster = query.contactId ? ` AND contactId IN (${names.join(', ') || ':none'})` : '';
      const input = {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: `expiresAt > :now${byPoster}`,
        ExpressionAttributeValues: {
          ':pk': partition(query.sessionId),
          ':now': query.now,
          ...Object.fromEntries(posters.map((id, i) => [`:c${i}`, id])),
          ...(query.contactId && posters.length === 0 ? { ':none': '' } : {}),
        },
      };
      return (await queryOffset(this.doc, input, page)).map(toStatus);
    });
  }

  delete(sessionId: string, statusId: string): Promise<StatusRecord | null> {
    return guard(STORE, async () => {
      const deleted = await this.doc.send(
        new DeleteCommand({
          TableName: this.table,
          Key: statusKey(sessionId, statusId),
          ReturnValues: 'ALL_OLD',
        }),
      );
      return deleted.Attributes ? toStatus(deleted.Attributes) : null;
    });
  }

  deleteExpired(now: number, limit: number): Promise<StatusRecord[]> {
    return guard(STORE, async () => {
      const input = {
        TableName: this.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :now',
        ExpressionAttributeValues: { ':pk': EXPIRY, ':now': `${padded(now)}#\uffff` },
        Limit: limit,
      };
      const expired = (await queryOffset(this.doc, input, { offset: 0, limit })).map(toStatus);
      await batchDelete(
        this.doc,
        this.table,
        expired.map((status) => statusKey(status.sessionId, status.statusId)),
      );
      return expired;
    });
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(
      STORE,
      async () => (await deletePartition(this.doc, this.table, partition(sessionId))).length,
    );
  }
}
