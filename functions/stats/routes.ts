/** The routes of the statistics resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { messageStatsRoute } from './message-stats.route.js';
import { sessionMessageStatsRoute } from './session-message-stats.route.js';
import { statsOverviewRoute } from './stats-overview.route.js';

export const statsRoutes: readonly AnyRoute[] = [
  statsOverviewRoute,
  messageStatsRoute,
  sessionMessageStatsRoute,
];
