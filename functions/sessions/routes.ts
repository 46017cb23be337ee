/** The routes of the sessions resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { createSessionRoute } from './create-session.route.js';
import { deleteSessionRoute } from './delete-session.route.js';
import { forceKillSessionRoute } from './force-kill-session.route.js';
import { getSessionRoute } from './get-session.route.js';
import { getSessionConfigRoute } from './get-session-config.route.js';
import { getSessionProxyRoute } from './get-session-proxy.route.js';
import { getSessionQrRoute } from './get-session-qr.route.js';
import { listSessionsRoute } from './list-sessions.route.js';
import { logoutSessionRoute } from './logout-session.route.js';
import { requestPairingCodeRoute } from './request-pairing-code.route.js';
import { sessionStatsRoute } from './session-stats.route.js';
import { startSessionRoute } from './start-session.route.js';
import { stopSessionRoute } from './stop-session.route.js';
import { updateSessionConfigRoute } from './update-session-config.route.js';
import { updateSessionProxyRoute } from './update-session-proxy.route.js';

export const sessionRoutes: readonly AnyRoute[] = [
  createSessionRoute,
  listSessionsRoute,
  sessionStatsRoute,
  getSessionRoute,
  deleteSessionRoute,
  startSessionRoute,
  stopSessionRoute,
  logoutSessionRoute,
  forceKillSessionRoute,
  getSessionQrRoute,
  requestPairingCodeRoute,
  getSessionConfigRoute,
  updateSessionConfigRoute,
  getSessionProxyRoute,
  updateSessionProxyRoute,
];
