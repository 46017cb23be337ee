/**
 * The host container's process (aws mode, `node dist/host/main.js`, through main.ts): runs the engines, consumes the command queue and
 * answers owner-directed calls on its RPC port until SIGINT/SIGTERM. It serves no API: the functions do, on Lambda.
 * The single-process mode (`npm start`) starts from embedded/main.ts instead.
 */
import { exitOnRefusedStart } from './exit-on-refused-start.js';
import { startHost } from './host-process.js';
import { loadEnvOrExit } from './load-env-or-exit.js';
import { requireSupportedNode } from './node-runtime.js';
import { runUntilSignal } from './run-until-signal.js';

async function main(): Promise<void> {
  requireSupportedNode();
  const env = loadEnvOrExit();
  if (env.DEPLOYMENT_MODE !== 'aws') {
    process.stderr.write(
      'dist/host/main.js runs a host for the aws mode (DEPLOYMENT_MODE=aws); the embedded gateway starts with ' +
        '`npm start` (dist/embedded/main.js)\n',
    );
    process.exit(1);
  }
  const host = await startHost({ env }).catch(exitOnRefusedStart);
  process.stdout.write(
    `Waygate host ${env.NODE_ID} is up (aws mode); RPC on ${host.rpcUrl}, advertised as ${env.NODE_URL}\n`,
  );
  runUntilSignal(() => host.close(), env.SHUTDOWN_GRACE_MS + env.WEBHOOK_SHUTDOWN_DRAIN_MS);
}

await main();
