/**
 * Per-device login counters, so a test can check that a linked device never had two live connections at once (one
 * client taking over from another without the first having gone): every login counts, and at each login the
 * device's connections that are still open, the new one included, raise the high-water mark. A login that finds
 * an older connection still open replaces it (`login.ts`) and counts as a replacement.
 */
import type { ClientConnection, CompanionDevice } from './accounts.js';

/** The device's authenticated connections whose socket is still open. */
export function liveConnectionsOf(device: CompanionDevice): ClientConnection[] {
  return [...device.connections].filter((connection) => connection.isOpen);
}

/** Counts a login of `connection` (already added to the device's connections, older ones not yet closed). */
export function recordLogin(device: CompanionDevice, connection: ClientConnection): void {
  const stats = device.connectionStats;
  const live = liveConnectionsOf(device);
  stats.logins++;
  stats.maxLiveConnections = Math.max(stats.maxLiveConnections, live.length);
  if (live.some((other) => other !== connection)) stats.replacedConnections++;
}

/** Starts the counters again from now: the high-water mark becomes the number of connections open now. */
export function resetConnectionStats(device: CompanionDevice): void {
  Object.assign(device.connectionStats, {
    logins: 0,
    maxLiveConnections: liveConnectionsOf(device).length,
    replacedConnections: 0,
  });
}
