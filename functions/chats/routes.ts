/**
 * The routes of the chats resource group (its Lambda): the list, read from the chat store, and the chat, presence and
 * call engine operations' rows, each made a route by engineOperationRoute.
 */
import { engineOperationRoute } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';
import { listChatsRoute } from './list-chats.route.js';

const TAGS = new Set(['Chats', 'Presence', 'Calls']);

export const chatRoutes: readonly AnyRoute[] = [
  listChatsRoute,
  ...ENGINE_OPERATION_ROWS.filter((row) => TAGS.has(row.http.tag)).map(engineOperationRoute),
];
