/**
 * The routes of the status updates resource group (its Lambda): the session's and a contact's statuses and their
 * files, read from the status store; posting text, image, video and voice statuses, and deleting one.
 */
import type { AnyRoute } from '#functions/http/route.js';
import { deleteStatusRoute } from './delete-status.route.js';
import { postStatusRoutes } from './post-status.route.js';
import { contactStatusesRoute, listStatusesRoute, statusMediaRoute } from './read-statuses.route.js';

export const statusRoutes: readonly AnyRoute[] = [
  listStatusesRoute,
  contactStatusesRoute,
  statusMediaRoute,
  ...postStatusRoutes,
  deleteStatusRoute,
];
