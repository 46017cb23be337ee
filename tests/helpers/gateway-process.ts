/**
 * A gateway run as a child process (`node dist/embedded/main.js`, the bundle `npm start` runs), for tests
 * that kill it with SIGKILL and start another on the same DATA_DIR.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { withSimCa } from '#tests/wa-sim/tls/sim-tls.js';
import { builtEntry } from './built-entry.js';
import { assertConforms } from './openapi-conformance.js';
import { waitFor } from './test-gateway.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  request<T = any>(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/** Spawns the gateway on `dataDir` and waits for its banner (the first line naming its URL). */
export async function spawnGateway(dataDir: string, env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [builtEntry('embedded/main')], {
    cwd: ROOT,
    // The gateway's Baileys engine uploads to and downloads from the simulator's media host (test CA).
    env: withSimCa({
      ...process.env,
      NODE_OPTIONS: '',
      PORT: '0',
      BIND_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ENGINE_TEARDOWN_TIMEOUT_MS: '1000',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) readline.createInterface({ input: stream }).on('line', (line) => output.push(line));
  }
  const url = await waitFor(
    () => {
      if (child.exitCode !== null)
        throw new Error(`gateway exited with ${child.exitCode}:\n${output.join('\n')}`);
      return output.map((line) => /listening on (http:\/\/\S+)/.exec(line)?.[1]).find(Boolean);
    },
    30_000,
    50,
  );
  const key = fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim();
  return {
    url,
    child,
    output,
    async request(method, urlPath, body) {
      const response = await fetch(`${url}${urlPath}`, {
        method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : null;
      assertConforms(method, urlPath, response.status, response.headers.get('content-type'), parsed);
      return { status: response.status, body: parsed };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}
