/**
 * Deletes of many message items at once: a session's (gsi1) or one chat's (gsi2). The index partition is read page
 * by page and each page deleted before the next is read, so a long history never sits in memory whole. The other
 * item a message owns is its network-id lock (`searchText` is an attribute of the message item, so search needs
 * nothing more); the page's locks are deleted before its messages: a delete cut short then leaves messages without
 * locks, which the index still leads a retry to, rather than locks without messages, which nothing leads back to
 * and which would keep their network ids taken for good. The index is eventually consistent: a message written a
 * moment before the delete may still be missing from it and stay.
 */
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { messageKey, waKey } from './dynamodb-message-items.js';
import { batchDelete, type Item } from './dynamodb-support.js';

/** What a delete removed: how many messages, and the media paths of those that had one. */
export interface DeletedMessages {
  count: number;
  mediaPaths: string[];
}

/** The index partition holding every message of a session, or of one chat of it. */
export type MessagePartition = { sessionId: string; chatId?: string };

function indexQuery(table: string, partition: MessagePartition): QueryCommandInput {
  const byChat = partition.chatId !== undefined;
  return {
    TableName: table,
    IndexName: byChat ? 'gsi2' : 'gsi1',
    KeyConditionExpression: byChat ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
    ExpressionAttributeValues: {
      ':pk': byChat ? `MSGCHAT#${partition.sessionId}#${partition.chatId}` : `MSG#${partition.sessionId}`,
    },
    ProjectionExpression: 'id, waMessageId, mediaPath',
  };
}

/** Deletes every message of `partition` with its lock item (see the module comment). */
export async function deleteMessages(
  doc: DynamoDBDocumentClient,
  table: string,
  partition: MessagePartition,
): Promise<DeletedMessages> {
  const input = indexQuery(table, partition);
  const deleted: DeletedMessages = { count: 0, mediaPaths: [] };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    const items = (page.Items ?? []) as Item[];
    const locks: Record<string, string>[] = [];
    for (const item of items) {
      if (typeof item.waMessageId === 'string') locks.push(waKey(partition.sessionId, item.waMessageId));
      if (typeof item.mediaPath === 'string') deleted.mediaPaths.push(item.mediaPath);
    }
    await batchDelete(doc, table, locks);
    await batchDelete(
      doc,
      table,
      items.map((item) => messageKey(String(item.id))),
    );
    deleted.count += items.length;
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return deleted;
}
