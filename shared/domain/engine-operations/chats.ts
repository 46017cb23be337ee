/**
 * The chat operations (openwa-facts §1.1, spec Sessions table): what a person does to a conversation in the app
 * besides writing in it. Each acts on the account through the engine, so every device of the account (the phone
 * too) sees it; the chat list itself is read from the gateway's chat store (shared/use-cases/chats/list-chats.ts).
 */
import { z } from 'zod';
import { ChatId } from '../message.js';
import { defineEngineOperation } from './engine-operation.js';

/** `{success}`: false when the engine declined (an unknown chat, or one with no known message to act up to). */
const Outcome = z
  .object({
    /** False when the engine declined: the chat is unknown, or it has no known message to act up to. */
    success: z.boolean(),
  })
  .meta({ id: 'ChatOperationResult' });

/** `{success: true}`: what an operation that cannot be declined answers. */
const Done = z.object({ success: z.literal(true) }).meta({ id: 'ChatOperationDone' });

const CHATS = 'Chats';
const PERSON = '15550002222@c.us';

/** `POST …/chats/read`: marks a chat read, or only the given messages. */
export const readChat = defineEngineOperation({
  name: 'chats.read',
  capability: 'chats_manage',
  method: 'markRead',
  input: z.strictObject({
    chatId: ChatId,
    /** Network ids of received messages to mark read; omitted, the whole chat is. */
    messageIds: z.array(z.string().min(1).max(128)).min(1).max(100).optional(),
  }),
  result: Outcome,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/read',
    summary: 'Mark a chat (or some of its messages) read',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON }, result: { success: true } },
});

/** `POST …/chats/unread`: marks a chat unread, as the app's "mark as unread" does. */
export const unreadChat = defineEngineOperation({
  name: 'chats.unread',
  capability: 'chats_manage',
  method: 'markUnread',
  input: z.strictObject({ chatId: ChatId }),
  result: Outcome,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/unread',
    summary: 'Mark a chat unread',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON }, result: { success: true } },
});

/** `POST …/chats/archive`: archives a chat (`archive: true`) or brings it back. */
export const archiveChat = defineEngineOperation({
  name: 'chats.archive',
  capability: 'chats_manage',
  method: 'archive',
  input: z.strictObject({ chatId: ChatId, archive: z.boolean() }),
  result: Outcome,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/archive',
    summary: 'Archive or unarchive a chat',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON, archive: true }, result: { success: true } },
});

/** `POST …/chats/mute`: mutes a chat until a time (epoch ms; 0 for ever), or unmutes it (null). */
export const muteChat = defineEngineOperation({
  name: 'chats.mute',
  capability: 'chats_manage',
  method: 'mute',
  input: z.strictObject({
    chatId: ChatId,
    muteUntil: z
      .number()
      .int()
      .min(0)
      .max(8_640_000_000_000_000)
      .nullable()
      .meta({ description: 'Epoch ms when the mute ends; 0 mutes for ever; null unmutes.' }),
  }),
  result: Done,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/mute',
    summary: 'Mute a chat until a time, or unmute it',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON, muteUntil: 1_900_000_000_000 }, result: { success: true } },
});

/** `POST …/chats/pin`: pins a chat to the top of the list, or unpins it. */
export const pinChat = defineEngineOperation({
  name: 'chats.pin',
  capability: 'chats_manage',
  method: 'pin',
  input: z.strictObject({ chatId: ChatId, pin: z.boolean() }),
  result: Outcome,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/pin',
    summary: 'Pin or unpin a chat',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON, pin: true }, result: { success: true } },
});

/** `POST …/chats/delete`: deletes a chat from the account, and its stored messages from the gateway. */
export const deleteChat = defineEngineOperation({
  name: 'chats.delete',
  capability: 'chats_manage',
  method: 'delete',
  input: z.strictObject({ chatId: ChatId }),
  result: Outcome,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/delete',
    summary: 'Delete a chat (its stored messages go too)',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON }, result: { success: true } },
});

/** `DELETE …/chats/{chatId}/messages`: clears a chat's messages on the account, and the stored rows. */
export const clearChat = defineEngineOperation({
  name: 'chats.clear',
  capability: 'chats_manage',
  method: 'clear',
  input: z.strictObject({ chatId: ChatId }),
  result: Outcome,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'DELETE',
    path: '/api/sessions/{sessionId}/chats/{chatId}/messages',
    summary: 'Clear the messages of a chat (the stored rows go too)',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON }, result: { success: true } },
});

/** `POST …/chats/typing`: shows the chat's other side that the account is typing or recording, or stops it. */
export const chatTyping = defineEngineOperation({
  name: 'chats.typing',
  capability: 'chats_manage',
  method: 'typing',
  input: z.strictObject({ chatId: ChatId, state: z.enum(['typing', 'recording', 'paused']) }),
  result: Done,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/typing',
    summary: 'Show typing or recording in a chat, or stop (paused)',
    tag: CHATS,
    success: 200,
  },
  example: { input: { chatId: PERSON, state: 'typing' }, result: { success: true } },
});
