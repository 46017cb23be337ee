/**
 * The presence operations (openwa-facts §1.1, spec Sessions table): whether the people of a chat are online or
 * typing, which WhatsApp tells only to a device that subscribed to them, and the account's own online state.
 * Subscriptions belong to the connection; the engines remember them and issue them again on every connection, so
 * they outlast a reconnect, a restart and an adoption by another host.
 */
import { z } from 'zod';
import { ChatPresence } from '../chat-presence.js';
import { ChatId } from '../message.js';
import { defineEngineOperation } from './engine-operation.js';

const PRESENCE = 'Presence';
const PERSON = '15550002222@c.us';
const Done = z.object({ success: z.literal(true) }).meta({ id: 'PresenceOperationDone' });

/** `POST …/presence/subscribe`: asks the network for a chat's presence; updates arrive as `presence.update`. */
export const subscribePresence = defineEngineOperation({
  name: 'presence.subscribe',
  capability: 'presence_subscribe',
  method: 'subscribe',
  input: z.strictObject({ chatId: ChatId }),
  result: Done,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/presence/subscribe',
    summary: 'Subscribe to the presence of a chat (online, typing)',
    tag: PRESENCE,
    success: 200,
  },
  example: { input: { chatId: PERSON }, result: { success: true } },
});

/** `GET …/presence/{chatId}`: the presence last reported for a chat; null (200) when none was. */
export const chatPresence = defineEngineOperation({
  name: 'presence.get',
  capability: 'presence_subscribe',
  method: 'presenceOf',
  input: z.strictObject({ chatId: ChatId }),
  result: ChatPresence.nullable(),
  role: 'viewer',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/presence/{chatId}',
    summary: 'The presence last reported for a chat (null when none was)',
    tag: PRESENCE,
    success: 200,
  },
  example: {
    input: { chatId: PERSON },
    result: {
      chatId: PERSON,
      participants: [{ id: PERSON, state: 'available', lastSeen: null }],
      observedAt: '2026-11-29T12:00:00.000Z',
    },
  },
});

/** `PUT …/presence`: shows the account online (`available: true`) or offline to its contacts. */
export const setPresence = defineEngineOperation({
  name: 'presence.set',
  capability: 'presence_set',
  method: 'setOwn',
  input: z.strictObject({ available: z.boolean() }),
  result: Done,
  role: 'operator',
  http: {
    method: 'PUT',
    path: '/api/sessions/{sessionId}/presence',
    summary: 'Set the own presence of the account (online or offline)',
    tag: PRESENCE,
    success: 200,
  },
  example: { input: { available: true }, result: { success: true } },
});
