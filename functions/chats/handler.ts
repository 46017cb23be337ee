/** The chats Lambda. */
import { createResourceHandler } from '#functions/http/http-handler.js';
import { chatRoutes } from './routes.js';

export const handler = createResourceHandler(chatRoutes);
