import { memoryStatusSink } from '#tests/helpers/memory-status-sink.js';
/**
 * The send step of `message.send` commands against a memory store: the network's delivery ack can arrive before
 * the engine's send resolves (the ack is read on the same socket), and the row must still get its send time and
 * the `message.sent` event exactly once, before the ack's. A run of a session's sends goes to the engine in order
 * and has its outcomes written together.
 */

import { describe, expect, it } from '@jest/globals';
import { ChatSink } from '#host/chats/chat-sink.js';
import type { OutgoingStatus } from '#host/engines/engine-events.js';
import { MessageSink } from '#host/messages/message-sink.js';
import { sendMessage, sendMessages } from '#host/messages/send-message.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryChatStore } from '#shared/adapters/memory/memory-chat-store.js';
import { MemoryIdentityStore } from '#shared/adapters/memory/memory-identity-store.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryMessageStore } from '#shared/adapters/memory/memory-message-store.js';
import type { CommandOf } from '#shared/domain/commands.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aMessage } from '#tests/helpers/builders.js';
import { recordingEvents } from '#tests/helpers/recording-events.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const SENT_AT = 1_750_000_000;

async function setUp(ackDuringSend: OutgoingStatus['status'] | null) {
  const messages = new MemoryMessageStore();
  const { recorder, published: seen } = recordingEvents();
  const sink = new MessageSink({
    messages,
    identities: new MemoryIdentityStore(),
    media: new MemoryMediaStorage(),
    events: recorder,
    chats: new ChatSink({
      chats: new MemoryChatStore(),
      messages: messages,
      media: new MemoryMediaStorage(),
      logger: silentLogger,
    }),
    statuses: memoryStatusSink(recorder, new TestClock()),
    clock: new TestClock(),
    logger: silentLogger,
  });
  const message = aMessage({ direction: 'outgoing', status: 'pending', timestamp: null, body: 'hi' });
  await messages.insert(message);
  const waMessageId = message.waMessageId as string;
  const runner = {
    isConnected: true,
    async send() {
      // As the engine does: the ack is handed to the sink and not awaited.
      if (ackDuringSend)
        void sink.status(message.sessionId, { waMessageId, chatId: message.chatId, status: ackDuringSend });
      return { timestamp: SENT_AT };
    },
  } as unknown as SessionRunner;
  const outcomes = new InProcessMessageOutcomes();
  const deps = {
    messages,
    sink,
    runnerOf: () => runner,
    inFlight: new Set<string>(),
    readyWaitMs: 0,
    outcomes,
    logger: silentLogger,
    media: new MemoryMediaStorage(),
  };
  const command: CommandOf<'message.send'> = {
    type: 'message.send',
    sessionId: message.sessionId,
    messageId: message.id,
    requestedAt: new Date().toISOString(),
  };
  return { messages, seen, message, deps, command, outcomes, sink };
}

describe('sendMessage', () => {
  it('tells the request waiting for the message once the row is sent', async () => {
    const { message, deps, command, outcomes } = await setUp(null);
    const waiting = outcomes.settled(message.sessionId, message.id, 5_000);
    await sendMessage(deps, command);
    await expect(waiting).resolves.toBe(true);
  });

  it('tells it too when the send fails (no connected runner), with the row failed', async () => {
    const { messages, message, deps, command, outcomes } = await setUp(null);
    const waiting = outcomes.settled(message.sessionId, message.id, 5_000);
    await sendMessage({ ...deps, runnerOf: () => undefined }, command);
    await expect(waiting).resolves.toBe(true);
    expect(await messages.findById(message.sessionId, message.id)).toMatchObject({ status: 'failed' });
  });

  it('marks the row sent with its time and publishes message.sent', async () => {
    const { messages, seen, message, deps, command } = await setUp(null);
    await sendMessage(deps, command);
    expect(await messages.findById(message.sessionId, message.id)).toMatchObject({
      status: 'sent',
      timestamp: SENT_AT,
    });
    expect(seen.map((e) => e.event)).toEqual(['message.sent']);
  });

  it("hands the engine the row's own time (when it was written), which the row keeps", async () => {
    const { messages, message, deps, command } = await setUp(null);
    const written = aMessage({
      ...message,
      id: crypto.randomUUID(),
      waMessageId: 'WRITTEN1',
      timestamp: 1_740_000_000,
    });
    await messages.insert(written);
    const handed: unknown[] = [];
    const runner = {
      isConnected: true,
      async send(outgoing: { timestamp?: number }) {
        handed.push(outgoing.timestamp);
        return { timestamp: outgoing.timestamp ?? SENT_AT };
      },
    } as unknown as SessionRunner;
    await sendMessage({ ...deps, runnerOf: () => runner }, { ...command, messageId: written.id });
    expect(handed).toEqual([1_740_000_000]);
    expect(await messages.findById(written.sessionId, written.id)).toMatchObject({
      status: 'sent',
      timestamp: 1_740_000_000,
    });
  });

  it.each(['delivered', 'read'] as const)(
    'an ack (%s) that overtook the send: applied after the send is written, so message.sent comes first, once',
    async (ack) => {
      const { messages, seen, message, deps, command, sink } = await setUp(ack);
      await sendMessage(deps, command);
      await sink.drain();
      expect(await messages.findById(message.sessionId, message.id)).toMatchObject({
        status: ack,
        timestamp: SENT_AT,
      });
      expect(seen.map((e) => e.event)).toEqual(['message.sent', 'message.ack']);
      expect(seen[0]).toMatchObject({ data: { id: message.waMessageId, timestamp: SENT_AT } });
      expect(seen[1]).toMatchObject({ data: { status: ack } });
      // A redelivered command finds the row no longer pending and does nothing.
      await sendMessage(deps, command);
      expect(seen).toHaveLength(2);
    },
  );
});

describe("sendMessages (a run of one session's sends)", () => {
  async function setUpRun(count: number) {
    const base = await setUp(null);
    const rows = [base.message];
    for (let i = 1; i < count; i++) {
      const row = aMessage({
        sessionId: base.message.sessionId,
        direction: 'outgoing',
        status: 'pending',
        body: `m${i}`,
      });
      await base.messages.insert(row);
      rows.push(row);
    }
    const commands = rows.map((row): CommandOf<'message.send'> => ({ ...base.command, messageId: row.id }));
    const engine: string[] = [];
    const statusesDuringSends: string[][] = [];
    const runner = {
      isConnected: true,
      async send(outgoing: { waMessageId: string; chatId: string }) {
        engine.push(outgoing.waMessageId);
        // Each send reads every row: none is written before the run's last send went out.
        statusesDuringSends.push(
          await Promise.all(
            rows.map(async (row) => (await base.messages.findById(row.sessionId, row.id))?.status ?? ''),
          ),
        );
        void base.sink.status(row0(rows).sessionId, { ...outgoing, status: 'delivered' });
        if (outgoing.waMessageId === rows[1]?.waMessageId) throw new Error('the network refused it');
        return { timestamp: SENT_AT };
      },
    } as unknown as SessionRunner;
    return {
      ...base,
      rows,
      commands,
      engine,
      statusesDuringSends,
      deps: { ...base.deps, runnerOf: () => runner },
    };
  }
  const row0 = <T>(rows: T[]) => rows[0] as T;

  it('sends in order, writes the outcomes together, then applies the acks that came meanwhile', async () => {
    const { rows, commands, engine, statusesDuringSends, deps, messages, seen, sink } = await setUpRun(3);
    await expect(sendMessages(deps, commands)).resolves.toEqual({ done: 3 });
    expect(engine).toEqual(rows.map((row) => row.waMessageId));
    expect(statusesDuringSends).toEqual(rows.map(() => ['pending', 'pending', 'pending']));
    await sink.drain();
    const stored = await Promise.all(rows.map((row) => messages.findById(row.sessionId, row.id)));
    // The refused one failed alone; a late ack does not revive it.
    expect(stored.map((row) => row?.status)).toEqual(['delivered', 'failed', 'delivered']);
    const byMessage = (row: { waMessageId: string | null }) =>
      seen
        .filter(
          (e) =>
            (e.data as { messageId?: string; id?: string }).messageId === row.waMessageId ||
            (e.data as { id?: string }).id === row.waMessageId,
        )
        .map((e) => e.event);
    expect(byMessage(row0(rows))).toEqual(['message.sent', 'message.ack']);
    expect(byMessage(rows[1] as { waMessageId: string | null })).toEqual(['message.failed']);
    expect(deps.inFlight.size).toBe(0);
  });

  it('stops at a command whose message this host is sending already: the ones before it are done', async () => {
    const { rows, commands, engine, deps, messages, sink } = await setUpRun(3);
    deps.inFlight.add((rows[1] as { id: string }).id);
    const result = await sendMessages(deps, commands);
    expect(result).toMatchObject({ done: 1, error: expect.objectContaining({ code: 'HOST_UNAVAILABLE' }) });
    expect(engine).toEqual([row0(rows).waMessageId]);
    await sink.drain();
    expect(await messages.findById(row0(rows).sessionId, row0(rows).id)).toMatchObject({
      status: 'delivered',
    });
    expect(await messages.findById(row0(rows).sessionId, (rows[2] as { id: string }).id)).toMatchObject({
      status: 'pending',
    });
  });

  it('takes a second command for a message of the same run as done, without sending it twice', async () => {
    const { rows, commands, engine, deps } = await setUpRun(1);
    const twice = [...commands, ...commands];
    await expect(sendMessages(deps, twice)).resolves.toEqual({ done: 2 });
    expect(engine).toEqual([row0(rows).waMessageId]);
  });

  /**
   * A runner whose sends log themselves and queue an immediate, as a socket read becoming ready would, and a
   * monotonic clock that only its sends move: each send stands for `sendMs` of CPU (with the embedded stores a send
   * never waits for I/O), so where a run yields depends on the sends alone, not on how loaded the machine is.
   */
  function loggingRunner(rows: { waMessageId: string | null }[], sendMs: number) {
    const log: string[] = [];
    let now = 0;
    const runner = {
      isConnected: true,
      async send(outgoing: { waMessageId: string }) {
        const n = rows.findIndex((row) => row.waMessageId === outgoing.waMessageId);
        log.push(`send ${n}`);
        setImmediate(() => log.push(`io after ${n}`));
        now += sendMs;
        return { timestamp: SENT_AT };
      },
    } as unknown as SessionRunner;
    return { log, runner, monotonicNow: () => now };
  }

  it('lets the event loop serve I/O before the next send each time the run has held it for its slice', async () => {
    const { rows, commands, deps } = await setUpRun(5);
    const { log, runner, monotonicNow } = loggingRunner(rows, 12);
    const run = sendMessages({ ...deps, runSliceMs: 20, monotonicNow, runnerOf: () => runner }, commands);
    await expect(run).resolves.toEqual({ done: 5 });
    await new Promise((resolve) => setImmediate(resolve));
    // 12 ms after the first send, 24 after the second: past the 20 ms slice, so the I/O both queued is served
    // before the third, and a new slice starts there. The last send's I/O comes once the run has let go.
    expect(log).toEqual([
      'send 0',
      'send 1',
      'io after 0',
      'io after 1',
      'send 2',
      'send 3',
      'io after 2',
      'io after 3',
      'send 4',
      'io after 4',
    ]);
  });

  it('sends back to back within the slice', async () => {
    const { rows, commands, deps } = await setUpRun(5);
    const { log, runner, monotonicNow } = loggingRunner(rows, 12);
    const run = sendMessages({ ...deps, runSliceMs: 60, monotonicNow, runnerOf: () => runner }, commands);
    await expect(run).resolves.toEqual({ done: 5 });
    // 4 × 12 = 48 ms before the last send: within the slice, so no I/O gets in between.
    expect(log.slice(0, 5)).toEqual(['send 0', 'send 1', 'send 2', 'send 3', 'send 4']);
  });
});
