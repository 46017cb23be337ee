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
import { closeClient, type LinkedClient, linkByQr, type SimEndpoints } from './client.js';
import { MessageLog } from './messages.js';

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

/** A simulator with one client linked as `phone`, a log of what that client hears, and some contacts. */
export interface LinkedSim {
  readonly sim: TestSim;
  readonly client: LinkedClient;
  readonly log: MessageLog;
  /** Stops the log, closes the client and stops the simulator. */
  stop(): Promise<void>;
}

/**
 * Starts a simulator, links a client by QR as `phone` and creates the contacts `numbers`: saved in the phone's
 * address book, which the client then learns (names, LIDs), unless `saved` is false.
 */
export async function startLinkedSim(
  phone: string,
  numbers: readonly string[],
  { saved = true }: { readonly saved?: boolean } = {},
): Promise<LinkedSim> {
  const sim = await startTestSim();
  const client = await linkByQr(sim, { phone });
  const log = new MessageLog(client.sock);
  for (const number of numbers) await sim.admin.ok('/contacts', { number, saved });
  return {
    sim,
    client,
    log,
    stop: async () => {
      log.stop();
      await closeClient(client.sock);
      await sim.stop();
    },
  };
}
