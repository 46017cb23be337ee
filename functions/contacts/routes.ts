/**
 * The routes of the contacts resource group (its Lambda): the contacts engine operations' rows, each made a route by
 * engineOperationRoute. The router tries them in the rows' order, so a fixed path (…/contacts/check/{number}) comes
 * before a parameter at the same place (…/contacts/{contactId}).
 */
import { engineOperationRoute } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';

export const contactRoutes: readonly AnyRoute[] = ENGINE_OPERATION_ROWS.filter(
  (row) => row.http.tag === 'Contacts',
).map(engineOperationRoute);
