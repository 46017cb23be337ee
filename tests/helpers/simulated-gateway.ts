/**
 * The usual end-to-end setup: the simulator in its own process and an in-process gateway whose Baileys engine
 * connects to it, every gateway event recorded.
 */
import type { GatewayEvent } from '#shared/domain/events.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';
import { type SimulatorProcess, startSimulatorProcess } from './simulator-process.js';
import { startTestGateway, type TestGateway } from './test-gateway.js';

export interface SimulatedGateway {
  sim: SimulatorProcess;
  gw: TestGateway;
}

/**
 * Starts the simulator and a gateway on it (`env`: more of its variables) that pushes every event it publishes onto
 * `events`.
 */
export async function startSimulatedGateway(
  events: GatewayEvent[],
  env: Record<string, string> = {},
): Promise<SimulatedGateway> {
  unrefBaileysUploadTimeouts();
  const sim = await startSimulatorProcess();
  try {
    const gw = await startTestGateway({ ...sim.gatewayEnv, ...env });
    gw.gateway.events.subscribe((event) => {
      events.push(event);
    });
    return { sim, gw };
  } catch (error) {
    await sim.stop();
    throw error;
  }
}
