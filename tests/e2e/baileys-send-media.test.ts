/**
 * Media sends end to end: the API archives the file, the host reads it back and the real Baileys client uploads it
 * to the simulator's media host, encrypted as WhatsApp does; the contact downloads, checks and decrypts it. Each
 * kind is asserted by what the contact decrypted, the bytes compared by hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { linkSessionByQr } from '#tests/helpers/link-session.js';
import { startSimulatedGateway } from '#tests/helpers/simulated-gateway.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import type { TestGateway } from '#tests/helpers/test-gateway.js';
import { assertSimCaTrusted } from '#tests/wa-sim/tls/sim-tls.js';

const PREFIX = `1555${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACT = `${PREFIX}900`;
const CONTACT_ID = `${CONTACT}@c.us`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('Baileys media sends against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    assertSimCaTrusted();
    ({ sim, gw } = await startSimulatedGateway(events));
    await sim.admin.ok('/contacts', { number: CONTACT, name: 'Carla' });
    sessionId = (await linkSessionByQr(gw, sim, PHONE)).id;
  }, 40_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  it.each([
    ['send-image', { mimetype: 'image/png', caption: 'the view' }, { kind: 'image', caption: 'the view' }],
    ['send-audio', { mimetype: 'audio/ogg; codecs=opus', ptt: true }, { kind: 'audio', ptt: true }],
    [
      'send-document',
      { mimetype: 'application/pdf', filename: 'q3.pdf' },
      { kind: 'document', fileName: 'q3.pdf' },
    ],
    ['send-sticker', { mimetype: 'image/webp' }, { kind: 'sticker' }],
    ['send-video', { mimetype: 'video/mp4', caption: 'clip' }, { kind: 'video', caption: 'clip' }],
  ] as const)(
    '%s: the contact decrypts the same bytes',
    async (action, fields, expected) => {
      const bytes = randomBytes(action === 'send-document' ? 30_000 : 5_000);
      const res = await gw.request('POST', `/api/sessions/${sessionId}/messages/${action}`, {
        body: { chatId: CONTACT_ID, data: bytes.toString('base64'), ...fields },
      });
      expect(res.status).toBe(201);
      const row = res.body as Message;
      expect(row.status).not.toBe('failed');
      const got = await sim.admin.receivedOne(CONTACT, row.waMessageId ?? '', 20_000);
      expect(got.content).toMatchObject({
        ...expected,
        mimetype: fields.mimetype,
        sha256: sha256(bytes),
        size: bytes.length,
      });
      expect((await sim.admin.media(CONTACT, row.waMessageId ?? '')).sha256).toBe(sha256(bytes));
    },
    40_000,
  );
});
