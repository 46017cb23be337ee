/**
 * Engine events: one typed map from name to payload schema. An emitter built from a handler table calls the
 * handler of each event; the checked emitter (the test engine's) refuses a payload its schema does not accept.
 */
import { describe, expect, it } from '@jest/globals';
import {
  checkedEmitter,
  ENGINE_EVENTS,
  type EngineEventHandlers,
  type EngineEventName,
  emitterOf,
} from '#host/engines/engine-events.js';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';

function recording() {
  const seen: [EngineEventName, unknown][] = [];
  const handlers = Object.fromEntries(
    Object.keys(ENGINE_EVENTS).map((name) => [
      name,
      (data: unknown) => seen.push([name as EngineEventName, data]),
    ]),
  ) as unknown as EngineEventHandlers;
  return { seen, handlers };
}

const inbound = {
  waMessageId: 'M1',
  chatId: '15550001111@c.us',
  from: '15550001111@c.us',
  to: '15550002222@c.us',
  author: null,
  body: 'hi',
  type: 'text',
  timestamp: 1_790_000_000,
  pushName: null,
};

describe('engine events', () => {
  it('reach the handler of their name, payload unchanged', () => {
    const { seen, handlers } = recording();

    emitterOf(handlers).emit('messageReceived', inbound);
    emitterOf(handlers).emit('failed', { reason: 'refused' });

    expect(seen).toEqual([
      ['messageReceived', inbound],
      ['failed', { reason: 'refused' }],
    ]);
  });

  it('are refused by the checked emitter when the payload does not match its schema', () => {
    const { seen, handlers } = recording();
    const checked = checkedEmitter(emitterOf(handlers));
    const malformed = { ...inbound, timestamp: 'yesterday' } as unknown as typeof inbound;

    expect(() => checked.emit('messageReceived', malformed)).toThrow();
    checked.emit('messageReceived', inbound);

    expect(seen).toEqual([['messageReceived', inbound]]);
  });

  it('from the test engine are checked: a test feeding it a malformed message fails at once', async () => {
    const network = new TestNetwork();
    const { handlers } = recording();
    const engine = await new TestEngineFactory(network).create(
      { id: 's1', name: 'one', config: {} },
      emitterOf(handlers),
    );
    network.storeCredentials('s1', { phone: '15550002222', pushName: null });
    await engine.start();
    await new Promise((resolve) => setImmediate(resolve));

    expect(() =>
      network.deliverInbound('s1', { ...inbound, chatId: 42 } as unknown as typeof inbound),
    ).toThrow();
    await engine.stop();
  });
});
