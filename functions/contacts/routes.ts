/**
 * The routes of the contacts resource group (its Lambda): the contacts engine operations' rows, each made a route by
 * engineOperationRoute (the route table matches literal segments before parameters, whatever the order).
 */
import { engineOperationRoute } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';

export const contactRoutes: readonly AnyRoute[] = ENGINE_OPERATION_ROWS.filter(
  (row) => row.http.tag === 'Contacts',
).map(engineOperationRoute);
