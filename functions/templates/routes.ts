/** The routes of the templates resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { createTemplateRoute } from './create-template.route.js';
import { deleteTemplateRoute } from './delete-template.route.js';
import { getTemplateRoute } from './get-template.route.js';
import { listTemplatesRoute } from './list-templates.route.js';
import { updateTemplateRoute } from './update-template.route.js';

export const templateRoutes: readonly AnyRoute[] = [
  createTemplateRoute,
  listTemplatesRoute,
  getTemplateRoute,
  updateTemplateRoute,
  deleteTemplateRoute,
];
