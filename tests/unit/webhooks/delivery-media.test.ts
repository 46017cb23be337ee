/**
 * Media inside webhook payloads: a message event's archived file travels base64-encoded in `media.data` when it is
 * at most WEBHOOK_MEDIA_INLINE_MAX_BYTES, read once per event however many webhooks it goes to; a larger file, an
 * omitted one, another event or an archive that does not answer leaves the payload as it was (the url stays); and a
 * body that would be over WEBHOOK_MAX_PAYLOAD_BYTES with the file sheds it and is still delivered. The archive side
 * reads the stored row's file from the memory stores.
 */

import { describe, expect, it } from '@jest/globals';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import { messageEventData } from '#shared/domain/events.js';
import { personLookup } from '#shared/domain/person-ids.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { DeliveryTarget } from '#shared/webhooks/delivery-attempts.js';
import { type DeliveryMedia, storeDeliveryMedia, withInlineMedia } from '#shared/webhooks/delivery-media.js';
import { QueuedWebhookDelivery } from '#shared/webhooks/queued-delivery.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { aDeliveryTarget, messageReceived } from '#tests/helpers/webhook-fixtures.js';

/** No pairings known: each person is named by the id the message shows. */
const NO_PAIRINGS = personLookup(new Map());

const FILE = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 256);
const URL_PATH = `/api/sessions/${messageReceived.sessionId}/messages/15550002222%40c.us/${messageReceived.data.messageId}/media`;

/** `message.received` of an image of `sizeBytes` whose file is archived. */
function imageEvent(sizeBytes = FILE.byteLength, extra: Record<string, unknown> = {}): GatewayEvent {
  return {
    ...messageReceived,
    data: {
      ...messageReceived.data,
      type: 'image',
      body: 'a caption',
      media: { mimetype: 'image/jpeg', sizeBytes, url: URL_PATH, ...extra },
    },
  };
}

/** An archive holding FILE for the fixture's message, counting its reads. */
function archive(bytes: Uint8Array | null = FILE) {
  const reads: string[] = [];
  const source: DeliveryMedia = {
    read: async (sessionId, messageId) => {
      reads.push(`${sessionId}/${messageId}`);
      return bytes;
    },
  };
  return { source, reads };
}

const mediaOf = (event: GatewayEvent | null) =>
  event && (event.event === 'message.received' || event.event === 'message.sent')
    ? event.data.media
    : undefined;

describe('withInlineMedia', () => {
  const inline = (event: GatewayEvent, source: DeliveryMedia, maxBytes = 1_048_576) =>
    withInlineMedia(event, { source, maxBytes, logger: silentLogger });

  it('puts a file within the cap in media.data, base64, keeping the rest of the payload', async () => {
    const { source, reads } = archive();
    const inlined = await inline(imageEvent(), source);
    expect(mediaOf(inlined)).toEqual({
      mimetype: 'image/jpeg',
      sizeBytes: FILE.byteLength,
      url: URL_PATH,
      data: Buffer.from(FILE).toString('base64'),
    });
    expect(Buffer.from(mediaOf(inlined)?.data ?? '', 'base64').equals(Buffer.from(FILE))).toBe(true);
    expect(reads).toEqual([`${messageReceived.sessionId}/${messageReceived.data.messageId}`]);
  });

  it('inlines a file exactly at the cap, not one byte over it', async () => {
    expect(mediaOf(await inline(imageEvent(), archive().source, FILE.byteLength))?.data).toBeDefined();
    const { source, reads } = archive();
    expect(await inline(imageEvent(), source, FILE.byteLength - 1)).toBeNull();
    expect(reads).toEqual([]); // decided by the recorded size, without reading the file
  });

  it('leaves out a file that is larger than its recorded size says', async () => {
    expect(await inline(imageEvent(100), archive().source, 1000)).toBeNull();
  });

  it('inlines nothing with the cap at 0, for an omitted or unarchived file, or for other events', async () => {
    const { source, reads } = archive();
    expect(await inline(imageEvent(), source, 0)).toBeNull();
    expect(await inline(imageEvent(FILE.byteLength, { omitted: 'too_large' }), source)).toBeNull();
    expect(await inline(imageEvent(FILE.byteLength, { url: undefined }), source)).toBeNull();
    expect(await inline(messageReceived, source)).toBeNull();
    const ack: GatewayEvent = {
      event: 'message.ack',
      sessionId: messageReceived.sessionId,
      occurredAt: messageReceived.occurredAt,
      data: { id: 'x', messageId: '3EB0', chatId: '1@c.us', status: 'read', ack: 3, recipient: null },
    };
    expect(await inline(ack, source)).toBeNull();
    expect(reads).toEqual([]);
  });

  it('delivers without the file when it is gone or the archive does not answer', async () => {
    expect(await inline(imageEvent(), archive(null).source)).toBeNull();
    const down: DeliveryMedia = {
      read: async () => {
        throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'S3 is unavailable');
      },
    };
    expect(await inline(imageEvent(), down)).toBeNull();
  });
});

describe('storeDeliveryMedia', () => {
  it("reads a stored message's archived file by its stored id; null without one", async () => {
    const data = createMemoryDataStore();
    const media = new MemoryMediaStorage();
    const session = aSession();
    await data.sessions.create(session);
    const withFile = aMessage({ sessionId: session.id, type: 'image' });
    const stored = await media.put({
      sessionId: session.id,
      messageId: withFile.id,
      mimetype: 'image/png',
      data: FILE,
    });
    await data.messages.insert({ ...withFile, mediaPath: stored.path, mediaMimetype: stored.mimetype });
    const plain = aMessage({ sessionId: session.id });
    await data.messages.insert(plain);

    const source = storeDeliveryMedia(data.messages, media);
    expect(Buffer.from((await source.read(session.id, withFile.id)) ?? []).equals(Buffer.from(FILE))).toBe(
      true,
    );
    expect(await source.read(session.id, plain.id)).toBeNull();
    expect(await source.read(session.id, 'b6a1c0de-0000-4000-8000-00000000ffff')).toBeNull();
    await media.delete(stored.path);
    expect(await source.read(session.id, withFile.id)).toBeNull();
  });

  it("gives the media url of a stored message's event only when its file is archived", () => {
    const message = aMessage({
      sessionId: messageReceived.sessionId,
      chatId: '15550002222@c.us',
      type: 'image',
      metadata: { media: { mimetype: 'image/jpeg', sizeBytes: 10 } },
    });
    expect(messageEventData(message, NO_PAIRINGS).media).toEqual({ mimetype: 'image/jpeg', sizeBytes: 10 });
    expect(
      messageEventData({ ...message, mediaPath: `${message.sessionId}/${message.id}.jpg` }, NO_PAIRINGS)
        .media,
    ).toEqual({
      mimetype: 'image/jpeg',
      sizeBytes: 10,
      url: `/api/sessions/${message.sessionId}/messages/15550002222%40c.us/${message.id}/media`,
    });
  });
});

describe('queued delivery with inline media', () => {
  function setup(maxPayloadBytes: number, source: DeliveryMedia) {
    const posts: string[] = [];
    const targets: DeliveryTarget[] = [aDeliveryTarget({ id: 'wh1' }), aDeliveryTarget({ id: 'wh2' })];
    const delivery = new QueuedWebhookDelivery(
      {
        targets: {
          active: async () => targets,
          current: async (_sid, id) => targets.find((t) => t.id === id) ?? null,
          triggered: async () => {},
        },
        media: source,
        http: {
          post: async (_url: string, request: { body: unknown }) => {
            posts.push(String(request.body));
            return { ok: true as const, status: 200, headers: {} };
          },
        },
        failures: { record: async () => {}, clear: async () => {} },
        jobs: { enqueueRetry: async () => true },
        clock: new TestClock(),
        logger: silentLogger,
      },
      {
        version: 'test',
        retryDelayMs: 5000,
        timeoutMs: 1000,
        maxPayloadBytes,
        mediaInlineMaxBytes: 1_048_576,
      },
    );
    return { delivery, posts };
  }
  const postedMedia = (body: string) => JSON.parse(body).data.media;

  it('sends the file inline to every webhook of the event, read from the archive once', async () => {
    const { source, reads } = archive();
    const { delivery, posts } = setup(1_048_576, source);
    const outcomes = await delivery.process({ kind: 'event', event: imageEvent() });
    expect(outcomes).toEqual(['delivered', 'delivered']);
    expect(posts.map((body) => postedMedia(body).data)).toEqual([
      Buffer.from(FILE).toString('base64'),
      Buffer.from(FILE).toString('base64'),
    ]);
    expect(reads).toHaveLength(1);
  });

  it('sheds the file when the body would be over the payload cap with it, and still delivers', async () => {
    const { delivery, posts } = setup(2000, archive().source);
    expect(await delivery.process({ kind: 'event', event: imageEvent() })).toEqual([
      'delivered',
      'delivered',
    ]);
    for (const body of posts) {
      expect(postedMedia(body)).toEqual({
        mimetype: 'image/jpeg',
        sizeBytes: FILE.byteLength,
        url: URL_PATH,
      });
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(2000);
    }
  });
});
