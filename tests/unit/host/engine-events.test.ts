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
  const seen: [EngineEventName | 'receive', unknown][] = [];
  const handlers = {
    ...Object.fromEntries(
      Object.keys(ENGINE_EVENTS).map((name) => [
        name,
        (data: unknown) => seen.push([name as EngineEventName, data]),
      ]),
    ),
    receive: async (message: unknown) => void seen.push(['receive', message]),
  } as unknown as EngineEventHandlers;
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
  it('reach the handler of their name, payload unchanged; messages reach `receive`', async () => {
    const { seen, handlers } = recording();

    await emitterOf(handlers).receive(inbound);
    emitterOf(handlers).emit('failed', { reason: 'refused' });

    expect(seen).toEqual([
      ['receive', inbound],
      ['failed', { reason: 'refused' }],
    ]);
  });

  it('let an engine wait for a message to be stored, and learn when it could not be', async () => {
    let store: () => void = () => undefined;
    const { handlers } = recording();
    const stored = new Promise<void>((resolve) => {
      store = resolve;
    });
    let settled = false;
    const receiving = emitterOf({ ...handlers, receive: () => stored })
      .receive(inbound)
      .then(() => {
        settled = true;
      });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    store();
    await receiving;
    expect(settled).toBe(true);

    const failing = emitterOf({ ...handlers, receive: () => Promise.reject(new Error('disk full')) });
    await expect(failing.receive(inbound)).rejects.toThrow('disk full');
  });

  it('are refused by the checked emitter when the payload does not match its schema', async () => {
    const { seen, handlers } = recording();
    const checked = checkedEmitter(emitterOf(handlers));
    const malformed = { ...inbound, timestamp: 'yesterday' } as unknown as typeof inbound;

    expect(() => checked.receive(malformed)).toThrow();
    expect(() => checked.emit('failed', { reason: 42 } as unknown as { reason: string })).toThrow();
    await checked.receive(inbound);

    expect(seen).toEqual([['receive', inbound]]);
  });

  it('from the test engine are checked: a test feeding it a malformed message fails at once', async () => {
    const network = new TestNetwork();
    const { handlers } = recording();
    const engine = await new TestEngineFactory(network).create(
      { id: 's1', name: 'one', config: {}, proxyUrl: null },
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
