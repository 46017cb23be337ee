/**
 * The contacts operations end to end: the real Baileys client inside the gateway asks the simulator over the wire
 * (usync), and the answers are the simulator's own view of its users: a registered contact with its LID, a number
 * that is not on WhatsApp.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

const nextPhone = phoneSequence('1559');
const CONTACT = `1559${String(process.pid % 1000).padStart(3, '0')}8000`;
const UNKNOWN = `1559${String(process.pid % 1000).padStart(3, '0')}8999`;

describe('contacts with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  let contactLid: string;

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
    contactLid = (await sim.admin.ok<{ lid: string }>('/contacts', { number: CONTACT })).lid;
    sessionId = (await linkSessionByQr(gw, sim, nextPhone())).id;
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  const check = (number: string) => gw.request('GET', `/api/sessions/${sessionId}/contacts/check/${number}`);

  it('checks a number the network knows: its id and the LID the network tells', async () => {
    const answer = await check(CONTACT);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      number: CONTACT,
      exists: true,
      whatsappId: `${CONTACT}@c.us`,
      lid: contactLid,
    });
  });

  it('checks a number that is not on WhatsApp', async () => {
    const answer = await check(UNKNOWN);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ number: UNKNOWN, exists: false, whatsappId: null, lid: null });
  });
});
