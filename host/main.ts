/**
 * `npm start`: runs the gateway (embedded mode by default; DEPLOYMENT_MODE=aws runs a host) until SIGINT/SIGTERM. A bad configuration stops it before
 * anything is opened, with one message naming every bad variable.
 */
import { EnvError, loadEnv } from '#shared/config/env.js';
import { startGateway } from './gateway.js';
import { requireSupportedNode } from './node-runtime.js';

function banner(url: string, bootstrap: Awaited<ReturnType<typeof startGateway>>['bootstrap']): string {
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
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const gateway = await startGateway({ env });
  process.stdout.write(
    env.DEPLOYMENT_MODE === 'aws'
      ? `Waygate host ${env.NODE_ID} is up (aws mode); RPC on ${gateway.rpcUrl}, advertised as ${env.NODE_URL}\n`
      : banner(gateway.url, gateway.bootstrap),
  );
  const shutdown = (signal: string) => {
    process.stdout.write(`\n${signal} received, shutting down…\n`);
    const force = setTimeout(() => process.exit(1), env.SHUTDOWN_GRACE_MS + 10_000);
    force.unref();
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

await main();
