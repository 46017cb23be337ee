/**
 * Runs the WhatsApp network simulator in its own process (as `npm run sim` does) for end-to-end tests, so the
 * gateway under test and the simulator never share an event loop, and exposes its admin API.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { AdminClient } from '#tests/wa-sim/harness/admin-client.js';
import { withSimCa } from '#tests/wa-sim/tls/sim-tls.js';

export interface SimulatorProcess {
  wsUrl: string;
  adminUrl: string;
  rootKey: string;
  /** The simulator's HTTPS media host; Baileys learns it from `media_conn`. */
  mediaUrl: string;
  admin: AdminClient;
  /** Gateway env that points the Baileys engine at this simulator. */
  gatewayEnv: Record<string, string>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function startSimulatorProcess(): Promise<SimulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/wa-sim/main.ts'], {
    cwd: ROOT,
    env: withSimCa({
      ...process.env,
      SIM_PORT: '0',
      SIM_LOG: process.env.SIM_LOG ?? 'warn',
      NODE_OPTIONS: '',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error('simulator has no stdout');
  const lines = readline.createInterface({ input: stdout });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('simulator did not start within 20 s')), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const { wsUrl, adminUrl, rootKey, mediaUrl } = JSON.parse(first) as {
    wsUrl: string;
    adminUrl: string;
    rootKey: string;
    mediaUrl: string;
  };
  return {
    wsUrl,
    adminUrl,
    rootKey,
    mediaUrl,
    admin: new AdminClient(adminUrl),
    gatewayEnv: { ENGINE: 'baileys', WA_WEBSOCKET_URL: wsUrl, WA_SERVER_ROOT_KEY: rootKey },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
