/**
 * The status writer stores a session's events in the same write as the row they describe: a crash on either side
 * of that write leaves both written or neither, never a row without its events.
 */
import { describe, expect, it } from '@jest/globals';
import { EventBus } from '#host/events/event-bus.js';
import { createHostEvents } from '#host/events/host-events.js';
import { type SessionEvent, SessionStatusWriter } from '#host/sessions/status-writer.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { SessionStatus } from '#shared/domain/session.js';
import { systemClock } from '#shared/ports/clock.port.js';
import type { EventOutbox } from '#shared/ports/event-outbox.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { aSession } from '#tests/helpers/builders.js';

/** Where the process "dies" around the row's write: just before it, or just after it. */
type CrashPoint = 'before-write' | 'after-write' | null;

async function setup(status: SessionStatus, crash: CrashPoint) {
  const data = createMemoryDataStore();
  const session = aSession({ status });
  await data.sessions.create(session);
  const sessions: SessionStore = Object.create(data.sessions);
  sessions.update = async (id, patch, options) => {
    if (crash === 'before-write') throw new Error('process died before the write');
    const result = await data.sessions.update(id, patch, options);
    if (crash === 'after-write') throw new Error('process died after the write');
    return result;
  };
  const bus = new EventBus(silentLogger);
  const announced: GatewayEvent[] = [];
  bus.subscribe((event) => {
    announced.push(event);
  });
  const { recorder } = createHostEvents({
    outbox: data.outbox,
    bus,
    clock: systemClock,
    logger: silentLogger,
  });
  const writer = new SessionStatusWriter(
    { sessions, events: recorder, clock: systemClock, logger: silentLogger },
    session.id,
  );
  const disconnected: SessionEvent = {
    event: 'session.disconnected',
    data: { sessionId: session.id, reason: 'stream errored' },
  };
  const row = async () => (await data.sessions.findById(session.id))?.status;
  return { data, session, writer, disconnected, announced, row };
}

/** Every stored entry's event name, oldest first (claimed far in the future, so every entry is due). */
async function stored(outbox: EventOutbox): Promise<string[]> {
  const future = new Date(Date.now() + 3_600_000);
  const entries = await outbox.claimStale({ olderThan: future, now: future, limit: 100 });
  return entries.map((entry) => entry.event.event);
}

describe('SessionStatusWriter', () => {
  it('has the events of a status change stored the moment its row is (a crash right after the write)', async () => {
    const { data, writer, disconnected, row } = await setup('ready', 'after-write');
    await expect(writer.apply('connection_lost', { lastError: 'x' }, [disconnected])).rejects.toThrow(
      'after the write',
    );
    expect(await row()).toBe('disconnected');
    // Entries of one instant are relayed in any order (as webhooks are delivered): compared as a set.
    expect((await stored(data.outbox)).sort()).toEqual(['session.disconnected', 'session.status']);
  });

  it('stores none of the events when the row is not written (a crash before the write)', async () => {
    const { data, writer, disconnected, row } = await setup('ready', 'before-write');
    await expect(writer.apply('connection_lost', { lastError: 'x' }, [disconnected])).rejects.toThrow(
      'before the write',
    );
    expect(await row()).toBe('ready');
    expect(await data.outbox.count()).toBe(0);
  });

  it('announces the stored events in order once the write is done', async () => {
    const { writer, disconnected, announced, session } = await setup('ready', null);
    await writer.apply('connection_lost', { lastError: 'x' }, [disconnected]);
    expect(announced.map((event) => [event.event, event.sessionId])).toEqual([
      ['session.status', session.id],
      ['session.disconnected', session.id],
    ]);
    expect(announced[0]?.data).toEqual({ sessionId: session.id, status: 'disconnected' });
  });

  it('publishes the events on their own when the machine refuses the change, since they happened anyway', async () => {
    const { data, writer, disconnected, announced, row } = await setup('created', null);
    await writer.apply('connection_lost', { lastError: 'x' }, [disconnected]);
    expect(await row()).toBe('created');
    expect(announced.map((event) => event.event)).toEqual(['session.disconnected']);
    expect(await data.sessions.findById(announced[0]?.sessionId ?? '')).not.toBeNull();
  });
});
