/**
 * Every engine factory declares its kind's row of the capability table, and the engines it builds expose exactly
 * the optional ports of that row (a port whose capability the table gives the kind is there; any other is absent),
 * besides the core connection and messaging methods. Engines are built, never started: nothing connects.
 */
import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { BaileysEngineFactory } from '#host/engines/baileys/baileys-engine-factory.js';
import { DeferredEngineFactory } from '#host/engines/deferred-engine-factory.js';
import type { EngineFactory } from '#host/engines/engine.port.js';
import { type EngineEventHandlers, emitterOf } from '#host/engines/engine-events.js';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { MemoryAuthStateStore } from '#shared/adapters/memory/memory-auth-state-store.js';
import {
  capabilitiesOf,
  ENGINE_PORTS,
  type OptionalEnginePort,
  portsOf,
} from '#shared/domain/engine-capabilities.js';

const OPTIONAL_PORTS = ENGINE_PORTS.filter(
  (port): port is OptionalEnginePort => port !== 'connection' && port !== 'messaging',
);
const CORE_METHODS = ['start', 'stop', 'logout', 'forceDestroy', 'send'] as const;

const ignored = new Proxy({} as EngineEventHandlers, { get: () => () => undefined });
const session = { id: 'ports', name: 'ports', config: {} };

const baileys = () =>
  new BaileysEngineFactory({
    authState: new MemoryAuthStateStore(),
    webSocketUrl: undefined,
    serverRootKey: undefined,
    logger: pino({ level: 'silent' }),
    messageStoreLimit: 10,
    connectTimeoutMs: 1_000,
    media: { maxBytes: 1024, timeoutMs: 1_000 },
  });

const factories: [string, () => EngineFactory][] = [
  ['test', () => new TestEngineFactory(new TestNetwork())],
  ['baileys', baileys],
  [
    'baileys (deferred)',
    () =>
      new DeferredEngineFactory(
        'baileys',
        async () => baileys(),
        async () => {},
      ),
  ],
];

describe.each(factories)('the %s engine factory', (_, make) => {
  it("declares its kind's capabilities from the table", () => {
    const factory = make();

    expect([...factory.capabilities].sort()).toEqual([...capabilitiesOf(factory.kind)].sort());
  });

  it('builds engines with the core methods and exactly the optional ports of its capabilities', async () => {
    const factory = make();

    const engine = await factory.create(session, emitterOf(ignored));

    for (const method of CORE_METHODS) expect(typeof engine[method]).toBe('function');
    const exposed = OPTIONAL_PORTS.filter(
      (port) => (engine as unknown as Record<string, unknown>)[port] !== undefined,
    );
    expect(exposed.sort()).toEqual([...portsOf(factory.kind)].sort());
  });
});
