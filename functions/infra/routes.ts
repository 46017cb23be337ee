/** The routes of the infra resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { exportDataRoute } from './export-data.route.js';
import { importDataRoute } from './import-data.route.js';

export const infraRoutes: readonly AnyRoute[] = [exportDataRoute, importDataRoute];
