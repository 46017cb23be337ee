/** The messages table's row and its mapping to the Message record, shared by the store and its changes. */
import type { Message, MessageDirection, MessageStatus } from '#shared/domain/message.js';
import { parseJsonObject, toJsonColumn } from './sqlite-store-support.js';

export interface MessageRow {
  id: string;
  session_id: string;
  wa_message_id: string | null;
  chat_id: string;
  chat_name: string | null;
  author: string | null;
  from_jid: string;
  to_jid: string;
  body: string | null;
  type: string;
  direction: string;
  timestamp: number | null;
  metadata: string | null;
  status: string;
  media_path: string | null;
  media_mimetype: string | null;
  created_at: string;
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    sessionId: row.session_id,
    waMessageId: row.wa_message_id,
    chatId: row.chat_id,
    chatName: row.chat_name,
    author: row.author,
    from: row.from_jid,
    to: row.to_jid,
    body: row.body,
    type: row.type,
    // Only ever written from validated messages.
    direction: row.direction as MessageDirection,
    timestamp: row.timestamp,
    metadata: parseJsonObject(row.metadata),
    status: row.status as MessageStatus,
    mediaPath: row.media_path,
    mediaMimetype: row.media_mimetype,
    createdAt: row.created_at,
  };
}

export function toRow(message: Message): MessageRow {
  return {
    id: message.id,
    session_id: message.sessionId,
    wa_message_id: message.waMessageId,
    chat_id: message.chatId,
    chat_name: message.chatName,
    author: message.author,
    from_jid: message.from,
    to_jid: message.to,
    body: message.body,
    type: message.type,
    direction: message.direction,
    timestamp: message.timestamp,
    metadata: toJsonColumn(message.metadata),
    status: message.status,
    media_path: message.mediaPath,
    media_mimetype: message.mediaMimetype,
    created_at: message.createdAt,
  };
}
