/**
 * The API thread's lifecycle as the main thread sees it, with stand-in entry modules in real worker threads: a
 * thread that cannot listen fails the start with its reason; one that ends on its own afterwards is reported (the
 * gateway then stops); a close waits for the thread's own close, then ends it; the thread's host requests are
 * answered on its port meanwhile.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Registry } from 'prom-client';
import { startApiThread } from '#embedded/api-thread-host.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { loadEnv } from '#shared/config/env.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';

/** Entry modules standing in for embedded/api-thread.ts, each one behaviour. */
const ENTRIES = {
  failing: `
import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ kind: 'failed', message: 'listen EADDRINUSE: address already in use 127.0.0.1:2785' });
`,
  crashing: `
import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ kind: 'listening', url: 'http://127.0.0.1:1' });
setTimeout(() => process.exit(3), 50);
`,
  // Asks the host for its engine count, reports it as its url, and closes when told to.
  serving: `
import { parentPort, workerData } from 'node:worker_threads';
const port = workerData.hostPort;
port.once('message', (answer) => {
  parentPort.postMessage({ kind: 'listening', url: 'engines:' + answer.value.activeEngines });
});
port.postMessage({ id: 0, kind: 'host.stats' });
parentPort.on('message', (message) => {
  if (message.kind !== 'close') return;
  setTimeout(() => parentPort.postMessage({ kind: 'closed' }), 100);
});
`,
};

let dir: string;
const entry = (name: keyof typeof ENTRIES) => pathToFileURL(path.join(dir, `${name}.mjs`));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-api-thread-'));
  for (const [name, source] of Object.entries(ENTRIES))
    fs.writeFileSync(path.join(dir, `${name}.mjs`), source);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const host: HostGateway = {
  call: async () => {
    throw new Error('not used');
  },
  stats: async () => ({ activeEngines: 4 }),
};

const options = (name: keyof typeof ENTRIES, onUnexpectedExit: (code: number) => void = () => undefined) => ({
  env: loadEnv({ API_THREAD: 'true' }),
  version: '0.0.0-test',
  host,
  outcomes: new InProcessMessageOutcomes(),
  metrics: new Registry(),
  logger: silentLogger,
  entry: entry(name),
  onUnexpectedExit,
});

describe('the API thread, from the main thread', () => {
  it('fails the start with the reason the thread gave', async () => {
    await expect(startApiThread(options('failing'))).rejects.toThrow(
      'The API thread did not start: listen EADDRINUSE: address already in use 127.0.0.1:2785',
    );
  });

  it('reports a thread that ends on its own once started', async () => {
    const exited = new Promise<number>((resolve) => {
      void startApiThread(options('crashing', resolve));
    });
    await expect(exited).resolves.toBe(3);
  });

  it("answers the thread's host requests, and closes it after its own close", async () => {
    const onUnexpectedExit = jest.fn<(code: number) => void>();
    const thread = await startApiThread(options('serving', onUnexpectedExit));
    expect(thread.url).toBe('engines:4');
    expect(thread.threadId).toBeGreaterThan(0);
    const started = performance.now();
    await thread.close();
    // The thread's close takes 100 ms: the main thread waited for it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(onUnexpectedExit).not.toHaveBeenCalled();
  });
});
