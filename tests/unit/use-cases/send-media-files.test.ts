/**
 * Who owns a media send's file, against the memory stores, a memory media archive and a memory command queue: a
 * send that is refused after its file was archived (pacing, a store failure) leaves no file behind; a forward of a
 * media message gets its own copy under its own id, so removing the source's file leaves the forward's; a forward
 * whose source file is gone is refused.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Message } from '#shared/domain/message.js';
import type { Session } from '#shared/domain/session.js';
import { AppError, SendPacingLimitedError, UnavailableError } from '#shared/errors/app-error.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { type SendDeps, type SendRequest, sendMessage } from '#shared/use-cases/messages/send-message.js';
import type { SendPacer } from '#shared/use-cases/messages/send-pacing.js';
import { aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const CHAT = '15550009999@c.us';
const OTHER = '15550008888@c.us';
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const image = (chatId = CHAT): SendRequest => ({
  chatId,
  content: {
    type: 'image',
    source: { data: Buffer.from(PNG).toString('base64') },
    mimetype: 'image/png',
    caption: 'look',
  },
});

describe('media send files', () => {
  let data: DataStore;
  let media: MemoryMediaStorage;
  let deps: SendDeps;
  let session: Session;

  beforeEach(async () => {
    data = createMemoryDataStore();
    media = new MemoryMediaStorage();
    const queue = new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
    deps = {
      data,
      commands: new CommandQueue(queue),
      outcomes: new InProcessMessageOutcomes(),
      clock: new TestClock(),
      logger: silentLogger,
      files: {
        media,
        fetcher: { fetch: async () => ({ ok: false, reason: 'refused', error: 'no fetching here' }) },
        fetchTimeoutMs: 1000,
      },
    };
    session = aSession({ status: 'ready', phone: '15550001111' });
    await data.sessions.create(session);
  });

  const send = (request: SendRequest, using: SendDeps = deps) =>
    sendMessage(using, SYSTEM_CALLER, session.id, request, 0);
  const files = () => media.deleteBySession(session.id);
  const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  };

  it('archives a sent file under the message and keeps it', async () => {
    const sent = await send(image());
    expect(sent.mediaPath).toBe(`${session.id}/${sent.id}.png`);
    expect(Buffer.from((await media.get(sent.mediaPath ?? ''))?.bytes ?? []).equals(Buffer.from(PNG))).toBe(
      true,
    );
  });

  it('removes the file of a send that pacing refuses after it was archived', async () => {
    const pacing = {
      admit: async () => {
        throw new SendPacingLimitedError('Paced', 60, {});
      },
    } as unknown as SendPacer;
    expect((await refusal(send(image(), { ...deps, pacing }))).code).toBe('SEND_PACING_LIMITED');
    expect(await files()).toBe(0);
  });

  it('removes the file of a send whose row could not be stored', async () => {
    const messages = Object.create(data.messages) as DataStore['messages'];
    messages.insert = async () => {
      throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Data store is unavailable');
    };
    const broken = { ...deps, data: { ...data, messages } };
    expect((await refusal(send(image(), broken))).code).toBe('DEPENDENCY_UNAVAILABLE');
    expect(await files()).toBe(0);
  });

  it("gives a forward its own copy of the file: removing the source's leaves the forward's", async () => {
    const source = await send(image());
    await data.messages.advanceStatus(session.id, source.waMessageId ?? '', 'sent');
    const forward: Message = await send({
      chatId: OTHER,
      content: { type: 'forward', fromChatId: CHAT, messageId: source.id },
    });
    expect(forward).toMatchObject({
      type: 'image',
      body: 'look',
      mediaPath: `${session.id}/${forward.id}.png`,
    });
    expect(forward.metadata).toMatchObject({
      forwarded: true,
      media: { mimetype: 'image/png', sizeBytes: 12 },
    });
    await media.delete(source.mediaPath ?? '');
    expect(
      Buffer.from((await media.get(forward.mediaPath ?? ''))?.bytes ?? []).equals(Buffer.from(PNG)),
    ).toBe(true);
  });

  it('refuses to forward a media message whose file is gone (400 MESSAGE_NOT_FORWARDABLE)', async () => {
    const source = await send(image());
    await media.delete(source.mediaPath ?? '');
    const error = await refusal(
      send({ chatId: OTHER, content: { type: 'forward', fromChatId: CHAT, messageId: source.id } }),
    );
    expect({ status: error.status, code: error.code }).toEqual({
      status: 400,
      code: 'MESSAGE_NOT_FORWARDABLE',
    });
    expect(await files()).toBe(0);
  });
});
