/**
 * The autoreply subscription on the host's event bus: a publish never waits for an evaluation (the engine's
 * inbound path awaits the bus), a shutdown does, and a closed subscription takes no more events.
 */
import { describe, expect, it } from '@jest/globals';
import { startAutoreply } from '#host/automation/start-autoreply.js';
import { EventBus } from '#host/events/event-bus.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import type { AutomationRule } from '#shared/domain/automation-rule.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { anAutomationRule, aReceivedText, aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

async function setUp() {
  const data = createMemoryDataStore();
  const session = aSession({ status: 'ready', phone: '15550001111' });
  await data.sessions.create(session);
  await data.automationRules.create(anAutomationRule({ sessionId: session.id, cooldownSeconds: 0 }), {
    maxPerSession: 0,
  });
  // Rule reads wait for the test to open the gate, so an evaluation can be held in flight.
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const listBySession = data.automationRules.listBySession.bind(data.automationRules);
  data.automationRules.listBySession = async (id: string): Promise<AutomationRule[]> => {
    await gate;
    return listBySession(id);
  };
  const queue = new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
  const events = new EventBus(silentLogger);
  const autoreply = startAutoreply({
    data,
    commands: new CommandQueue(queue),
    outcomes: new InProcessMessageOutcomes(),
    events,
    clock: new TestClock(),
    logger: silentLogger,
  });
  const received = () => aReceivedText(session.id);
  return { events, autoreply, queue, open, received };
}

describe('startAutoreply', () => {
  it('never delays a publish, and close waits for the evaluation under way', async () => {
    const { events, autoreply, queue, open, received } = await setUp();

    // The rule read is held: a publish that waited for the evaluation would never resolve.
    await events.publish(received());
    expect(await queue.depth()).toBe(0);

    let closed = false;
    const closing = autoreply.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);

    open();
    await closing;
    expect(await queue.depth()).toBe(1);
  });

  it('takes no events once closed', async () => {
    const { events, autoreply, queue, open, received } = await setUp();
    open();
    await autoreply.close();

    await events.publish(received());
    await autoreply.drain();

    expect(await queue.depth()).toBe(0);
  });

  it('drain resolves once every reply started so far is queued', async () => {
    const { events, autoreply, queue, open, received } = await setUp();
    open();

    await events.publish(received());
    await events.publish(received());
    await autoreply.drain();

    expect(await queue.depth()).toBe(2);
  });
});
