/** The audit Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { listAuditRoute } from './list-audit.route.js';

export const auditRoutes = [listAuditRoute];

export const handler = createResourceHandler(auditRoutes);
