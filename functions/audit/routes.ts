/** The routes of the audit resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { listAuditRoute } from './list-audit.route.js';

export const auditRoutes: readonly AnyRoute[] = [listAuditRoute];
