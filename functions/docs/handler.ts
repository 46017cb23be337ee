/**
 * The docs Lambda: the OpenAPI document and its human page, built from the route manifest; and, behind the catch-all
 * route, the 405 (with `Allow`) or 404 of every request no route claims.
 */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { API_RESOURCES, allRoutes } from '#functions/manifest.js';

export const handler = createResourceHandler(API_RESOURCES.docs.routes, { catchAll: allRoutes() });
