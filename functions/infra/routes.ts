/** The routes of the infra resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { exportDataRoute } from './export-data.route.js';
import { getInfraConfigRoute } from './get-infra-config.route.js';
import { importDataRoute } from './import-data.route.js';
import { infraStatusRoute } from './infra-status.route.js';
import { updateInfraConfigRoute } from './update-infra-config.route.js';

export const infraRoutes: readonly AnyRoute[] = [
  infraStatusRoute,
  getInfraConfigRoute,
  updateInfraConfigRoute,
  exportDataRoute,
  importDataRoute,
];
