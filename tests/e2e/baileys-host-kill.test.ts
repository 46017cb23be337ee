/**
 * A gateway host killed with SIGKILL: the gateway runs as a child process (`node --import tsx embedded/main.ts`, as
 * `npm start` runs its bundle) with the real Baileys engine against the simulator in its own process. After the
 * kill a new process on the same DATA_DIR resumes the linked session from its stored credentials.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

interface Account {
  devices: { deviceId: number; liveConnections: number; loggedOut: boolean }[];
}

describe('Baileys engine: a gateway host killed with SIGKILL', () => {
  let sim: SimulatorProcess;
  let dataDir: string;
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-kill-'));
  }, 30_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await sim?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  const liveConnections = async (phone: string) =>
    (await sim.admin.get<Account>(`/accounts/${phone}`)).body.devices[0]?.liveConnections;

  it('a new process on the same DATA_DIR brings the linked session back to ready without a new QR', async () => {
    const first = await spawnGateway(dataDir, sim.gatewayEnv);
    gateways.push(first);
    const phone = `1557${String(process.pid % 10_000).padStart(4, '0')}001`;
    const id = await linkProcessSession(first, sim, phone, 'kill');
    await waitFor(async () => (await liveConnections(phone)) === 1);

    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');
    // The kernel closed the dead process's socket: the simulator sees the connection gone.
    await waitFor(async () => (await liveConnections(phone)) === 0);

    const second = await spawnGateway(dataDir, sim.gatewayEnv);
    gateways.push(second);
    const seen: string[] = [];
    const ready = await readyAfterRestart(second, id, seen, 20_000);
    expect(ready).toMatchObject({ phone, lastError: null });
    expect(seen).not.toContain('qr_ready');
    expect(seen).not.toContain('failed');
    await waitFor(async () => (await liveConnections(phone)) === 1);
    // Still the one device linked by the scan: nothing was linked anew.
    const { devices } = (await sim.admin.get<Account>(`/accounts/${phone}`)).body;
    expect(devices).toEqual([expect.objectContaining({ deviceId: 1, loggedOut: false, liveConnections: 1 })]);
  }, 60_000);
});
