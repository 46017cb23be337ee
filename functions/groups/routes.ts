/**
 * The routes of the groups resource group (its Lambda): the group engine operations' rows (groups and their
 * members), each made a route by engineOperationRoute (literal segments such as `join-info` match before
 * `{groupId}`, whatever the order).
 */
import { engineOperationRoute } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';

export const groupRoutes: readonly AnyRoute[] = ENGINE_OPERATION_ROWS.filter(
  (row) => row.http.tag === 'Groups',
).map(engineOperationRoute);
