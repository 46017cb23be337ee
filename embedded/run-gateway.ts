/**
 * `npm start` (through main.ts): the gateway in one process (embedded mode by default; with DEPLOYMENT_MODE=aws a
 * host alone, as dist/host/main.js) until SIGINT/SIGTERM. A bad configuration stops it before anything is opened, with
 * one message naming every bad variable; so does a Baileys or libsignal without Waygate's patches, naming each one.
 */
import { exitOnRefusedStart } from '#host/exit-on-refused-start.js';
import { loadEnvOrExit } from '#host/load-env-or-exit.js';
import { requireSupportedNode } from '#host/node-runtime.js';
import { runUntilSignal } from '#host/run-until-signal.js';
import { type RunningGateway, startGateway } from './gateway.js';

function banner(url: string, bootstrap: RunningGateway['bootstrap']): string {
  const lines = [`Waygate is listening on ${url}  (API reference: ${url}/api/docs)`];
  if (bootstrap.status === 'created') {
    lines.push(`An admin API key was created. It is shown this once:`, `    ${bootstrap.plaintext}`);
    if (bootstrap.file) lines.push(`It is also saved in ${bootstrap.file} (mode 0600).`);
  } else if (bootstrap.file) {
    lines.push(`The admin API key is in ${bootstrap.file}.`);
  }
  lines.push(`Try: curl -H "X-API-Key: <key>" ${url}/api/sessions`);
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  requireSupportedNode();
  const env = loadEnvOrExit();
  const gateway = await startGateway({ env }).catch(exitOnRefusedStart);
  process.stdout.write(
    env.DEPLOYMENT_MODE === 'aws'
      ? `Waygate host ${env.NODE_ID} is up (aws mode); RPC on ${gateway.rpcUrl}, advertised as ${env.NODE_URL}\n`
      : banner(gateway.url, gateway.bootstrap),
  );
  runUntilSignal(() => gateway.close(), env.SHUTDOWN_GRACE_MS + env.WEBHOOK_SHUTDOWN_DRAIN_MS);
}

await main();
