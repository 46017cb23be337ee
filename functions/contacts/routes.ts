/**
 * The routes of the contacts resource group (its Lambda): the contacts engine operations' rows, each made a route by
 * engineOperationRoute, literal paths before parameters at the same place (bySpecificity).
 */
import { bySpecificity, engineOperationRoute } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';

export const contactRoutes: readonly AnyRoute[] = ENGINE_OPERATION_ROWS.filter(
  (row) => row.http.tag === 'Contacts',
)
  .map(engineOperationRoute)
  .sort(bySpecificity);
