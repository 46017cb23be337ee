/** The docs Lambda: the OpenAPI document and its human page, built from the route manifest. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { API_RESOURCES } from '#functions/manifest.js';

export const handler = createResourceHandler(API_RESOURCES.docs.routes);
