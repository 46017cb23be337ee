/** The routes of the messages resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { listMessagesRoute } from './list-messages.route.js';
import { sendTemplateRoute } from './send-template.route.js';
import { sendTextRoute } from './send-text.route.js';

export const messageRoutes: readonly AnyRoute[] = [listMessagesRoute, sendTextRoute, sendTemplateRoute];
