/**
 * `npm run sim`: runs the simulator in its own process. Prints exactly one JSON line to stdout
 * (`{"wsUrl","adminUrl","rootKey"}`); logs go to stderr. Env: SIM_PORT (default 7080), SIM_HOST
 * (default 127.0.0.1), SIM_LOG (silent|error|warn|info|debug, default info).
 */

import { quietLibsignal } from '#host/engines/baileys/quiet-libsignal.js';
import { startSimulator } from './server.js';
import { createLogger, parseLogLevel } from './support/log.js';

const level = parseLogLevel(process.env.SIM_LOG, 'info');
if (level !== 'debug') quietLibsignal();
const port = Number(process.env.SIM_PORT ?? 7080);
const running = await startSimulator({
  port: Number.isInteger(port) ? port : 7080,
  host: process.env.SIM_HOST ?? '127.0.0.1',
  logger: createLogger(level),
});
process.stdout.write(
  `${JSON.stringify({ wsUrl: running.wsUrl, adminUrl: running.adminUrl, rootKey: running.rootKey })}\n`,
);

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
