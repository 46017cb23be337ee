/**
 * The routes of the labels resource group (its Lambda): the label engine operations' rows, each made a route by
 * engineOperationRoute (`/labels/chat/…` matches before `/labels/{labelId}`, whatever the order).
 */
import { engineOperationRoute } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';

export const labelRoutes: readonly AnyRoute[] = ENGINE_OPERATION_ROWS.filter(
  (row) => row.http.tag === 'Labels',
).map(engineOperationRoute);
