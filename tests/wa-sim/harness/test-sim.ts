/**
 * An in-process simulator for a test file: started on a free port, trusted by this process's Baileys module,
 * with libsignal's session chatter filtered. `SIM_LOG=debug` traces every node.
 */
import * as baileys from '@whiskeysockets/baileys';
import { quietLibsignal } from '#host/engines/baileys/quiet-libsignal.js';
import { trustSimulatorRootKey } from '#tests/wa-sim/client-trust.js';
import { type RunningSimulator, startSimulator } from '#tests/wa-sim/server.js';
import { parseLogLevel } from '#tests/wa-sim/support/log.js';
import { AdminClient } from './admin-client.js';
import { unrefBaileysUploadTimeouts } from './baileys-timers.js';
import type { SimEndpoints } from './client.js';

/** A running simulator plus what tests use to drive it. */
export interface TestSim extends SimEndpoints {
  readonly running: RunningSimulator;
  stop(): Promise<void>;
}

/** Starts a simulator and patches Baileys' trust for it. */
export async function startTestSim(): Promise<TestSim> {
  unrefBaileysUploadTimeouts();
  const restoreConsole = quietLibsignal();
  const running = await startSimulator({ logLevel: parseLogLevel(process.env.SIM_LOG, 'warn') });
  const restoreTrust = trustSimulatorRootKey(baileys, running.rootKey);
  return {
    running,
    wsUrl: running.wsUrl,
    admin: new AdminClient(running.adminUrl),
    stop: async () => {
      await running.close();
      restoreTrust();
      restoreConsole();
    },
  };
}
