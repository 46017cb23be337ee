/** The contacts Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { contactRoutes } from './routes.js';

export const handler = createResourceHandler(contactRoutes);
