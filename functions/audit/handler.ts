/** The audit Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { auditRoutes } from './routes.js';

export const handler = createResourceHandler(auditRoutes);
