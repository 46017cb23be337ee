/**
 * Reactions, edits and revokes on DynamoDB message items. A change is judged on the item as read and written only
 * where the item still has the revision it was judged on (`changeRevision`, kept beside the record's fields), with
 * the outbox entry in the same transaction; a concurrent change makes it read again and judge anew.
 */
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { applyMessageChange, type MessageChange } from '#shared/domain/message-changes.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { ContentChange, OutboxEntryOfChange } from '#shared/ports/message-store.port.js';
import { outboxItem, outboxTaken } from './dynamodb-event-outbox.js';
import { messageKey, toMessage, waKey } from './dynamodb-message-items.js';
import { searchTextAttribute } from './dynamodb-message-search.js';
import { cancellationCodes, failedAt, getItem, isConditionFailed, putNew } from './dynamodb-support.js';

const MAX_ATTEMPTS = 10;

export interface ChangeRequest {
  sessionId: string;
  waMessageId: string;
  change: MessageChange;
  outbox: OutboxEntryOfChange | undefined;
}

/** Applies `request.change` to the item with its network id (see the module comment). */
export async function applyContentChange(
  doc: DynamoDBDocumentClient,
  table: string,
  request: ChangeRequest,
): Promise<ContentChange> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const lock = await getItem(doc, table, waKey(request.sessionId, request.waMessageId));
    const item =
      typeof lock?.messageId === 'string' ? await getItem(doc, table, messageKey(lock.messageId)) : null;
    if (!item || item.sessionId !== request.sessionId) return { outcome: 'not_found' };
    const previous = toMessage(item);
    const message = applyMessageChange(previous, request.change);
    if (!message) return { outcome: 'unchanged', message: previous };
    const revision = typeof item.changeRevision === 'number' ? item.changeRevision : 0;
    const update = {
      TableName: table,
      Key: messageKey(previous.id),
      ConditionExpression:
        revision === 0 ? 'attribute_not_exists(changeRevision)' : 'changeRevision = :revision',
      UpdateExpression:
        'SET #type = :type, body = :body, metadata = :metadata, mediaPath = :mediaPath, ' +
        'mediaMimetype = :mediaMimetype, searchText = :searchText, changeRevision = :next',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ...(revision === 0 ? {} : { ':revision': revision }),
        ':type': message.type,
        ':body': message.body,
        ':metadata': message.metadata,
        ':mediaPath': message.mediaPath,
        ':mediaMimetype': message.mediaMimetype,
        ':searchText': searchTextAttribute(message).searchText,
        ':next': revision + 1,
      },
    };
    const entry = request.outbox?.({ message, previous }) ?? null;
    try {
      if (entry) {
        await doc.send(
          new TransactWriteCommand({ TransactItems: [{ Update: update }, putNew(table, outboxItem(entry))] }),
        );
      } else {
        await doc.send(new UpdateCommand(update));
      }
      return { outcome: 'updated', message, previous };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (isConditionFailed(error) || failedAt(codes, 0)) continue;
      if (failedAt(codes, 1)) throw outboxTaken();
      throw error;
    }
  }
  throw new ConflictError('CONFLICT', 'The message changed concurrently; retry');
}
