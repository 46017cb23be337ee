/**
 * `npm run sim`: runs the simulator in its own process. Prints exactly one JSON line to stdout
 * (`{"wsUrl","adminUrl","rootKey","mediaUrl"}`); logs go to stderr. Env: SIM_PORT (default 7080), SIM_HOST
 * (default 127.0.0.1), SIM_LOG (silent|error|warn|info|debug, default info), SIM_MEDIA_PORT (the HTTPS media
 * host, default 0: a free port), SIM_MEDIA_STORE_MB (media kept before the oldest is evicted, default 256).
 */

import { quietLibsignal } from '#host/engines/baileys/quiet-libsignal.js';
import { startSimulator } from './server.js';
import { createLogger, parseLogLevel } from './support/log.js';

const level = parseLogLevel(process.env.SIM_LOG, 'info');
if (level !== 'debug') quietLibsignal();
const port = Number(process.env.SIM_PORT ?? 7080);
const mediaPort = Number(process.env.SIM_MEDIA_PORT ?? 0);
const mediaStoreMb = Number(process.env.SIM_MEDIA_STORE_MB ?? 256);
const running = await startSimulator({
  port: Number.isInteger(port) ? port : 7080,
  host: process.env.SIM_HOST ?? '127.0.0.1',
  logger: createLogger(level),
  mediaPort: Number.isInteger(mediaPort) ? mediaPort : 0,
  mediaStoreBytes: (mediaStoreMb > 0 ? mediaStoreMb : 256) * 1024 * 1024,
});
const { wsUrl, adminUrl, rootKey, mediaUrl } = running;
process.stdout.write(`${JSON.stringify({ wsUrl, adminUrl, rootKey, mediaUrl })}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  // Sockets that will not finish closing must not keep the process alive.
  setTimeout(() => process.exit(0), 3000).unref();
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
