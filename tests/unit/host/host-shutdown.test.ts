/**
 * A graceful shutdown does not close the stores under a message still being stored: the network considers a message
 * delivered once the engine received it, so one that was not stored by then is lost for good.
 */

import { describe, expect, it } from '@jest/globals';
import { MemoryMessageStore } from '#shared/adapters/memory/memory-message-store.js';
import type { Message } from '#shared/domain/message.js';
import type { OutboxEntryFor } from '#shared/ports/event-outbox.port.js';
import { aSession } from '#tests/helpers/builders.js';
import { memoryHost, untilTrue as until } from '#tests/helpers/memory-host.js';

/** A message store whose inserts wait until the test lets them through (a slow DynamoDB write). */
class GatedMessageStore extends MemoryMessageStore {
  private opened = false;
  private readonly waiting: (() => void)[] = [];

  open(): void {
    this.opened = true;
    for (const release of this.waiting.splice(0)) release();
  }

  override async insert(message: Message, outbox?: OutboxEntryFor): Promise<boolean> {
    if (!this.opened) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.insert(message, outbox);
  }
}

describe('Host.shutdown', () => {
  it('resolves only once the messages the engines reported are stored and published', async () => {
    const { host, sessions, messages, network, published } = memoryHost(new GatedMessageStore());
    const session = aSession({ status: 'initializing' });
    await sessions.create(session);
    network.storeCredentials(session.id, { phone: '15550001111', pushName: null });
    await host.handleStart({
      type: 'session.start',
      sessionId: session.id,
      reason: 'requested',
      requestedAt: new Date().toISOString(),
    });
    await until(async () => (await sessions.findById(session.id))?.status === 'ready');

    network.deliverInbound(session.id, {
      waMessageId: 'IN-1',
      chatId: '15557770001@c.us',
      from: '15557770001@c.us',
      to: '15550001111@c.us',
      author: null,
      body: 'sent just before the shutdown',
      type: 'text',
      timestamp: 1_790_000_000,
      pushName: null,
    });
    let shutDown = false;
    const shutdown = host.shutdown().then(() => {
      shutDown = true;
    });
    // The engine is gone (the network holds nothing more for it), the insert still waits.
    await until(async () => (await host.stats()).activeEngines === 0);
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(shutDown).toBe(false);

    messages.open();
    await shutdown;
    expect(await messages.findByWaMessageId(session.id, 'IN-1')).toMatchObject({
      body: 'sent just before the shutdown',
    });
    expect(published.filter((e) => e.event === 'message.received')).toHaveLength(1);
  });
});
