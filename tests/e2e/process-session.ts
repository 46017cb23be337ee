/**
 * Sessions of a gateway run as a child process (tests/helpers/gateway-process.ts): linking one to the simulated
 * network by scanning its QR, and watching its status through the API.
 */
import { expect } from '@jest/globals';
import type { GatewayProcess } from '#tests/helpers/gateway-process.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import { sessionName, waitFor } from '#tests/helpers/test-gateway.js';

/** The fields of a session these tests read. */
export interface ProcessSession {
  status: string;
  phone: string | null;
  lastError: string | null;
}

/** Creates and starts a session, lets the simulated phone `phone` scan its QR, and waits until it is ready. */
export async function linkProcessSession(
  gateway: GatewayProcess,
  sim: SimulatorProcess,
  phone: string,
  prefix: string,
): Promise<string> {
  const created = await gateway.request<{ id: string }>('POST', '/api/sessions', {
    name: sessionName(prefix),
  });
  expect(created.status).toBe(201);
  const { id } = created.body;
  expect((await gateway.request('POST', `/api/sessions/${id}/start`)).status).toBe(200);
  const qr = await waitFor(async () => {
    const res = await gateway.request<{ qrCode?: string }>('GET', `/api/sessions/${id}/qr`);
    return res.status === 200 ? res.body.qrCode : null;
  }, 15_000);
  await sim.admin.ok('/mock-phone/scan-qr', { qr, phone });
  await waitFor(
    async () => (await gateway.request('GET', `/api/sessions/${id}`)).body.status === 'ready',
    15_000,
  );
  return id;
}

/**
 * Waits until the session is ready, recording every status it showed on the way (e.g. to check that a restarted
 * gateway never asked for a new QR). Answers the ready session.
 */
export async function readyAfterRestart(
  gateway: GatewayProcess,
  id: string,
  seen: string[],
  timeoutMs = 30_000,
): Promise<ProcessSession> {
  return waitFor(async () => {
    const { body } = await gateway.request<ProcessSession>('GET', `/api/sessions/${id}`);
    if (seen.at(-1) !== body.status) seen.push(body.status);
    return body.status === 'ready' ? body : null;
  }, timeoutMs);
}
