/**
 * Media both ways, end to end. Sent: the API archives the file, the host reads it back and the real Baileys client
 * uploads it to the simulator's media host, encrypted as WhatsApp does; the contact downloads, checks and decrypts
 * it (asserted by the hash of the bytes). Received: a contact's media, end to end: the simulated contact encrypts and uploads each file to the simulator's media host
 * as WhatsApp does, the gateway's real Baileys client downloads and decrypts it before acknowledging the message,
 * and the gateway stores the row (type, caption as body, `metadata.media`), archives the file and serves it back,
 * byte for byte, from its media route; message.received describes the file, and a real webhook receiver gets it
 * inline (base64) up to WEBHOOK_MEDIA_INLINE_MAX_BYTES, and its url beyond.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventMedia, GatewayEvent, MessageEventData } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { linkSessionByQr } from '#tests/helpers/link-session.js';
import {
  type ScriptedReceiver,
  startScriptedReceiver,
  WHSEC_SECRET,
} from '#tests/helpers/scripted-receiver.js';
import { fetchMedia, fetchServed } from '#tests/helpers/served-media.js';
import { startSimulatedGateway } from '#tests/helpers/simulated-gateway.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import { type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { assertSimCaTrusted } from '#tests/wa-sim/tls/sim-tls.js';

const PREFIX = `1556${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACT = `${PREFIX}900`;
const CONTACT_ID = `${CONTACT}@c.us`;
/** Files up to this size travel inside webhook payloads here: the 6 KB ones do, the 40 KB document does not. */
const INLINE_MAX = 20_000;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('Baileys media both ways against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  const events: GatewayEvent[] = [];

  let hook: ScriptedReceiver;

  beforeAll(async () => {
    assertSimCaTrusted();
    hook = await startScriptedReceiver();
    ({ sim, gw } = await startSimulatedGateway(events, {
      SSRF_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_MEDIA_INLINE_MAX_BYTES: String(INLINE_MAX),
    }));
    await sim.admin.ok('/contacts', { number: CONTACT, name: 'Carla' });
    sessionId = (await linkSessionByQr(gw, sim, PHONE)).id;
    const created = await gw.request('POST', `/api/sessions/${sessionId}/webhooks`, {
      body: { url: hook.url, events: ['message.received'], secret: WHSEC_SECRET },
    });
    expect(created.status).toBe(201);
  }, 40_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
    await hook?.close();
  });

  /** The `media` of the verified webhook delivery of message `id`. */
  async function deliveredMedia(id: string): Promise<EventMedia> {
    const payloadOf = (body: string) => JSON.parse(body) as { data: MessageEventData };
    const delivery = await waitFor(() => hook.received.find((d) => payloadOf(d.body).data.id === id), 20_000);
    expect(delivery.verified).toBe(true);
    return payloadOf(delivery.body).data.media as EventMedia;
  }

  /** The contact sends `content`; resolves with the stored row and the event once published. */
  async function contactSends(content: Record<string, unknown>) {
    const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${CONTACT}/messages`, {
      to: PHONE,
      content,
    });
    const event = await waitFor(() => {
      const found = events.find((e) => e.event === 'message.received' && e.data.id === id);
      return found?.event === 'message.received' ? (found.data as MessageEventData) : undefined;
    }, 20_000);
    const page = await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${CONTACT_ID}`);
    const row = (page.body.messages as Message[]).find((m) => m.waMessageId === id) as Message;
    return { id, event, row };
  }

  const served = (id: string) => fetchMedia(gw, sessionId, CONTACT_ID, id);

  it.each([
    ['image', { mimetype: 'image/png', caption: 'the view' }, 'image', 'the view'],
    ['video', { mimetype: 'video/mp4', caption: 'the clip', seconds: 12 }, 'video', 'the clip'],
    ['audio', { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 }, 'voice', null],
    // Not a voice note (no ptt): a plain audio file, stored as `audio`.
    ['audio', { mimetype: 'audio/mpeg', seconds: 7 }, 'audio', null],
    [
      'document',
      { mimetype: 'application/pdf', fileName: 'q3.pdf', caption: 'numbers' },
      'document',
      'numbers',
    ],
    ['sticker', { mimetype: 'image/webp' }, 'sticker', null],
  ] as const)(
    'stores, archives and serves a %s: %j',
    async (kind, fields, type, body) => {
      const bytes = randomBytes(kind === 'document' ? 40_000 : 6_000);
      const { id, event, row } = await contactSends({
        type: kind,
        data: bytes.toString('base64'),
        ...fields,
      });
      expect(row).toMatchObject({ type, body, direction: 'incoming', mediaMimetype: expect.any(String) });
      expect(row.mediaPath).toEqual(expect.stringContaining(sessionId));
      expect(row.metadata?.media).toMatchObject({ mimetype: fields.mimetype, sizeBytes: bytes.length });
      if ('fileName' in fields) expect(row.metadata?.media).toMatchObject({ filename: fields.fileName });
      if ('seconds' in fields) expect(row.metadata?.media).toMatchObject({ seconds: fields.seconds });
      expect(event).toMatchObject({ type, media: { mimetype: fields.mimetype, sizeBytes: bytes.length } });
      const file = await served(id);
      expect(file.status).toBe(200);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(sha256(file.bytes)).toBe(sha256(bytes));
      // The webhook: inline within the cap; beyond it, the url of the same route.
      const media = await deliveredMedia(id);
      expect(media.url).toBe(
        `/api/sessions/${sessionId}/messages/${encodeURIComponent(CONTACT_ID)}/${row.id}/media`,
      );
      if (bytes.length <= INLINE_MAX) {
        expect(sha256(Buffer.from(media.data ?? '', 'base64'))).toBe(sha256(bytes));
      } else {
        expect(media.data).toBeUndefined();
        const byUrl = await fetchServed(gw, media.url ?? '');
        expect(sha256(byUrl.bytes)).toBe(sha256(bytes));
      }
    },
    40_000,
  );

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
