/**
 * Links a session of an in-process gateway to the simulated network the way a user would: create it, start it,
 * fetch its QR (a PNG data URL) and let the simulated phone `phone` scan it, then wait until it is ready.
 */
import { expect } from '@jest/globals';
import type { SimulatorProcess } from './simulator-process.js';
import { sessionName, type TestGateway, waitForStatus } from './test-gateway.js';

/**
 * A generator of phone numbers unique to this test process: `prefix` (one per test file, so files sharing one
 * simulator never collide), three digits of the pid, then a counter.
 */
export function phoneSequence(prefix: string): () => string {
  let counter = 0;
  return () => `${prefix}${String(process.pid % 1000).padStart(3, '0')}${String(++counter).padStart(4, '0')}`;
}

export interface LinkedSession {
  id: string;
  phone: string;
  /** The QR the gateway showed, as it was scanned. */
  qrCode: string;
}

export async function linkSessionByQr(
  gw: TestGateway,
  sim: SimulatorProcess,
  phone: string,
  config?: Record<string, unknown>,
): Promise<LinkedSession> {
  const created = await gw.request('POST', '/api/sessions', {
    body: { name: sessionName('e2e'), ...(config ? { config } : {}) },
  });
  expect(created.status).toBe(201);
  const id: string = created.body.id;
  expect((await gw.request('POST', `/api/sessions/${id}/start`)).status).toBe(200);
  await waitForStatus(gw, id, 'qr_ready', 15_000);
  const qrCode: string = (await gw.request('GET', `/api/sessions/${id}/qr`)).body.qrCode;
  await sim.admin.ok('/mock-phone/scan-qr', { qr: qrCode, phone });
  await waitForStatus(gw, id, 'ready', 15_000);
  return { id, phone, qrCode };
}
