/**
 * The label operations (openwa-facts §1.6): WhatsApp Business labels, and the chats they tag. Which engine can do
 * what is the spec's split, kept in the capability table: reading labels (labels_read) only where the engine keeps
 * them (the browser-based engine), creating, changing and deleting them (labels_edit) only on the browser-free one,
 * tagging and untagging chats (labels_tag) on both; every other pair answers 501.
 */
import { z } from 'zod';
import { Label } from '../label.js';
import { ChatId } from '../message.js';
import { defineEngineOperation } from './engine-operation.js';

const LABELS = 'Labels';
const PERSON = '15550002222@c.us';

/** A label id: WhatsApp numbers them. */
const LabelId = z.string().regex(/^[0-9]{1,20}$/, 'must be a label id (digits)');

const Done = z.object({ success: z.literal(true) }).meta({ id: 'LabelOperationDone' });
const LABEL = { id: '1', name: 'New customer', hexColor: '#FF9485' };

/** `GET …/labels`. */
export const listLabels = defineEngineOperation({
  name: 'labels.list',
  capability: 'labels_read',
  method: 'list',
  input: z.strictObject({}),
  result: z.array(Label),
  role: 'viewer',
  chats: 'none',
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/labels',
    summary: 'List labels',
    tag: LABELS,
    success: 200,
  },
  example: { input: {}, result: [LABEL] },
});

/** `GET …/labels/{labelId}`: 404 for an unknown label. */
export const getLabel = defineEngineOperation({
  name: 'labels.get',
  capability: 'labels_read',
  method: 'get',
  input: z.strictObject({ labelId: LabelId }),
  result: Label,
  role: 'viewer',
  chats: 'none',
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/labels/{labelId}',
    summary: 'Get a label',
    tag: LABELS,
    success: 200,
  },
  example: { input: { labelId: '1' }, result: LABEL },
});

/** `GET …/labels/{labelId}/chats`: the chats a label tags. */
export const labelChats = defineEngineOperation({
  name: 'labels.chats',
  capability: 'labels_read',
  method: 'chatsOf',
  input: z.strictObject({ labelId: LabelId }),
  result: z.array(z.object({ id: z.string() })).meta({ id: 'LabelChats' }),
  role: 'viewer',
  chats: { listed: (chat) => chat.id },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/labels/{labelId}/chats',
    summary: 'List the chats a label tags',
    tag: LABELS,
    success: 200,
  },
  example: { input: { labelId: '1' }, result: [{ id: PERSON }] },
});

/** `GET …/labels/chat/{chatId}`: the labels on a chat. */
export const chatLabels = defineEngineOperation({
  name: 'labels.ofChat',
  capability: 'labels_read',
  method: 'labelsOf',
  input: z.strictObject({ chatId: ChatId }),
  result: z.array(Label),
  role: 'viewer',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/labels/chat/{chatId}',
    summary: 'List the labels on a chat',
    tag: LABELS,
    success: 200,
  },
  example: { input: { chatId: PERSON }, result: [LABEL] },
});

/**
 * `PUT …/labels/{labelId}`: creates or changes a label (name, colour 0–19). An engine that keeps no labels (Baileys)
 * cannot merge a partial change into the label, so it asks for both.
 */
export const upsertLabel = defineEngineOperation({
  name: 'labels.upsert',
  capability: 'labels_edit',
  method: 'upsert',
  input: z
    .strictObject({
      labelId: LabelId,
      name: z.string().trim().min(1).max(100).optional(),
      color: z.number().int().min(0).max(19).optional(),
    })
    .refine((input) => input.name !== undefined || input.color !== undefined, 'give a name, a color or both'),
  result: Done,
  role: 'operator',
  http: {
    method: 'PUT',
    path: '/api/sessions/{sessionId}/labels/{labelId}',
    summary: 'Create or change a label',
    tag: LABELS,
    success: 200,
  },
  example: { input: { labelId: '1', name: 'New customer', color: 0 }, result: { success: true } },
});

/** `DELETE …/labels/{labelId}`. */
export const deleteLabel = defineEngineOperation({
  name: 'labels.delete',
  capability: 'labels_edit',
  method: 'delete',
  input: z.strictObject({ labelId: LabelId }),
  result: Done,
  role: 'operator',
  http: {
    method: 'DELETE',
    path: '/api/sessions/{sessionId}/labels/{labelId}',
    summary: 'Delete a label',
    tag: LABELS,
    success: 200,
  },
  example: { input: { labelId: '1' }, result: { success: true } },
});

/** `POST …/labels/chat/{chatId}`: tags a chat with a label. */
export const tagChat = defineEngineOperation({
  name: 'labels.tag',
  capability: 'labels_tag',
  method: 'tag',
  input: z.strictObject({ chatId: ChatId, labelId: LabelId }),
  result: Done,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/labels/chat/{chatId}',
    summary: 'Add a label to a chat',
    tag: LABELS,
    success: 200,
  },
  example: { input: { chatId: PERSON, labelId: '1' }, result: { success: true } },
});

/** `DELETE …/labels/chat/{chatId}/{labelId}`: takes a label off a chat. */
export const untagChat = defineEngineOperation({
  name: 'labels.untag',
  capability: 'labels_tag',
  method: 'untag',
  input: z.strictObject({ chatId: ChatId, labelId: LabelId }),
  result: Done,
  role: 'operator',
  chats: { addresses: ['chatId'] },
  http: {
    method: 'DELETE',
    path: '/api/sessions/{sessionId}/labels/chat/{chatId}/{labelId}',
    summary: 'Remove a label from a chat',
    tag: LABELS,
    success: 200,
  },
  example: { input: { chatId: PERSON, labelId: '1' }, result: { success: true } },
});
