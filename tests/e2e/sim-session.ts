/**
 * The setup the Baileys e2e files share: the simulator in a process of its own, an in-process gateway pointed at it,
 * the contacts a file needs, and one session linked by QR to a phone of its own, ready.
 */
import { linkSessionByQr } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

/** A ready session of a gateway on the simulator. */
export interface SimulatedSession {
  readonly sim: SimulatorProcess;
  readonly gw: TestGateway;
  readonly sessionId: string;
  readonly phone: string;
}

/**
 * Starts the simulator and a gateway, saves `contacts` (numbers) at the simulator and links a session to phone
 * `phone`. Whatever started is stopped again if a later step fails, since the caller never gets it to stop.
 */
export async function startSimulatedSession(
  phone: string,
  contacts: readonly string[],
  /** Gateway settings besides the simulator's (e.g. SSRF_ALLOWED_HOSTS for a local webhook receiver). */
  env: Record<string, string> = {},
): Promise<SimulatedSession> {
  unrefBaileysUploadTimeouts();
  const sim = await startSimulatorProcess();
  let gw: TestGateway | undefined;
  try {
    gw = await startTestGateway({ ...sim.gatewayEnv, ...env });
    for (const number of contacts) await sim.admin.ok('/contacts', { number });
    const sessionId = (await linkSessionByQr(gw, sim, phone)).id;
    return { sim, gw, sessionId, phone };
  } catch (error) {
    await gw?.close();
    await sim.stop();
    throw error;
  }
}
