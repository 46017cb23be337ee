/**
 * Search on DynamoDB, which has no full-text index: a bounded read of the history index. The session's (gsi1) or
 * chat's (gsi2) items are queried newest first with a filter that keeps the items whose `searchText` (the folded
 * words of the body, written with every insert and content change) holds every term's needle, and the read stops at
 * `scanLimit` items evaluated or once more than `maxMatches` matched. DynamoDB charges for what it reads before
 * filtering: about (items read × average item size ÷ 8 KB) read units per search (index reads are eventually
 * consistent, ½ unit per 4 KB), so at most about scanLimit × item size ÷ 8 KB, e.g. ~625 units for 5,000 items of
 * 1 KB. Messages older than the budget are never searched; the answer then says `truncated`.
 */
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '#shared/domain/common.js';
import type { Message } from '#shared/domain/message.js';
import { matchesSearch, searchNeedle, searchTextOf } from '#shared/domain/message-search.js';
import type { MessageSearch, MessageSearchPage } from '#shared/ports/message-store.port.js';
import { toMessage } from './dynamodb-message-items.js';
import type { Item } from './dynamodb-support.js';

/** Items a search reads at most when SEARCH_SCAN_LIMIT does not say otherwise. */
export const DEFAULT_SEARCH_SCAN_LIMIT = 5000;

/** The `searchText` attribute of a message item (see message-search.ts searchTextOf). */
export function searchTextAttribute(message: Pick<Message, 'body'>): { searchText: string } {
  return { searchText: searchTextOf(message.body) };
}

/** The history index query of a search, newest first, with the filter on its terms. */
function searchQuery(table: string, search: MessageSearch): QueryCommandInput {
  const values: Record<string, unknown> = { ':string': 'S' };
  search.terms.forEach((term, i) => {
    values[`:t${i}`] = searchNeedle(term);
  });
  const terms = search.terms.map((_, i) => `contains(searchText, :t${i})`).join(' AND ');
  return {
    TableName: table,
    ...(search.chatId === undefined
      ? { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk' }
      : { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk' }),
    ScanIndexForward: false,
    // An item written before `searchText` existed passes with any body and is judged on its body below.
    FilterExpression: `(${terms}) OR (attribute_not_exists(searchText) AND attribute_type(body, :string))`,
    ExpressionAttributeValues: {
      ...values,
      ':pk':
        search.chatId === undefined
          ? `MSG#${search.sessionId}`
          : `MSGCHAT#${search.sessionId}#${search.chatId}`,
    },
  };
}

function searchTextOfItem(item: Item): string {
  if (typeof item.searchText === 'string') return item.searchText;
  return searchTextOf(typeof item.body === 'string' ? item.body : null);
}

/** Runs `search` reading at most `scanLimit` items (see the module comment). */
export async function searchMessageItems(
  doc: DynamoDBDocumentClient,
  table: string,
  search: MessageSearch,
  page: Page,
  scanLimit: number,
): Promise<MessageSearchPage> {
  const input = searchQuery(table, search);
  const found: Message[] = [];
  let scanned = 0;
  let startKey: Record<string, unknown> | undefined;
  let complete = false;
  while (scanned < scanLimit && found.length <= search.maxMatches) {
    const result = await doc.send(
      new QueryCommand({ ...input, Limit: scanLimit - scanned, ExclusiveStartKey: startKey }),
    );
    scanned += result.ScannedCount ?? 0;
    for (const item of (result.Items ?? []) as Item[]) {
      if (matchesSearch(searchTextOfItem(item), search.terms)) found.push(toMessage(item));
    }
    startKey = result.LastEvaluatedKey;
    if (startKey === undefined) {
      complete = true;
      break;
    }
  }
  const total = Math.min(found.length, search.maxMatches);
  return {
    messages: found.slice(page.offset, Math.min(page.offset + page.limit, total)),
    total,
    truncated: !complete || found.length > search.maxMatches,
  };
}
