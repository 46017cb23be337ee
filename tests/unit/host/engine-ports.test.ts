/**
 * Every engine factory declares its kind's capabilities and builds engines that expose exactly the optional ports
 * of those capabilities, besides the core connection and messaging methods. What each factory has is written out
 * here by hand (not read from the capability table, which the factories read), so a factory or an engine that
 * follows the wrong kind, or a port an engine adds or drops, fails. The test-core factory is the one a gateway
 * with ENGINE=test-core runs (env and selectEngine). Engines are built, never started: nothing connects.
 */

import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { BaileysEngineFactory } from '#host/engines/baileys/baileys-engine-factory.js';
import { DeferredEngineFactory } from '#host/engines/deferred-engine-factory.js';
import type { EngineFactory } from '#host/engines/engine.port.js';
import { type EngineEventHandlers, emitterOf } from '#host/engines/engine-events.js';
import { selectEngine } from '#host/engines/select-engine.js';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { MemoryAuthStateStore } from '#shared/adapters/memory/memory-auth-state-store.js';
import { MemoryChatStore } from '#shared/adapters/memory/memory-chat-store.js';
import { loadEnv } from '#shared/config/env.js';
import {
  ENGINE_PORTS,
  type EngineCapability,
  type EngineKind,
  type OptionalEnginePort,
} from '#shared/domain/engine-capabilities.js';

const OPTIONAL_PORTS = ENGINE_PORTS.filter(
  (port): port is OptionalEnginePort => port !== 'connection' && port !== 'messaging',
);
const CORE_METHODS = ['start', 'stop', 'logout', 'forceDestroy', 'send'] as const;

const ignored = new Proxy({} as EngineEventHandlers, { get: () => () => undefined });
const session = { id: 'ports', name: 'ports', config: {}, proxyUrl: null };

const baileys = () =>
  new BaileysEngineFactory({
    authState: new MemoryAuthStateStore(),
    webSocketUrl: undefined,
    serverRootKey: undefined,
    logger: pino({ level: 'silent' }),
    messageStoreLimit: 10,
    connectTimeoutMs: 1_000,
    media: { maxBytes: 1024, timeoutMs: 1_000 },
    chats: new MemoryChatStore(),
  });

interface Expected {
  kind: EngineKind;
  capabilities: EngineCapability[];
  ports: OptionalEnginePort[];
}

/** What the Baileys engine has today (the test engine: the same and labels_read). */
const FULL: Omit<Expected, 'kind'> = {
  capabilities: [
    'chats_list',
    'chats_manage',
    'contacts_block',
    'contacts_check',
    'contacts_read',
    'groups_manage',
    'groups_read',
    'labels_edit',
    'labels_tag',
    'pairing_code',
    'presence_set',
    'presence_subscribe',
    'reject_calls',
    'status_post',
  ],
  ports: ['calls', 'chats', 'contacts', 'groups', 'labels', 'pairing', 'presence', 'status'],
};

/** Each factory, with the kind, capabilities and optional ports its engines have today. */
const factories: [string, () => EngineFactory, Expected][] = [
  [
    'test',
    () => new TestEngineFactory(new TestNetwork()),
    {
      kind: 'test',
      // Reading labels too: the browser-based engine's, which the test engine also does.
      capabilities: [...FULL.capabilities, 'labels_read' as const].sort(),
      ports: FULL.ports,
    },
  ],
  [
    'test-core (ENGINE=test-core)',
    () =>
      selectEngine(loadEnv({ ENGINE: 'test-core' }), {
        authState: () => new MemoryAuthStateStore(),
        chats: new MemoryChatStore(),
      }).factory,
    { kind: 'test-core', capabilities: [], ports: [] },
  ],
  [
    'baileys',
    baileys,
    {
      kind: 'baileys',
      ...FULL,
    },
  ],
  [
    'baileys (deferred)',
    () =>
      new DeferredEngineFactory(
        'baileys',
        async () => baileys(),
        async () => {},
      ),
    {
      kind: 'baileys',
      ...FULL,
    },
  ],
];

describe.each(factories)('the %s engine factory', (_, make, expected) => {
  it("declares its kind and that kind's capabilities", () => {
    const factory = make();

    expect({ kind: factory.kind, capabilities: [...factory.capabilities].sort() }).toEqual({
      kind: expected.kind,
      capabilities: expected.capabilities,
    });
  });

  it('builds engines with the core methods and exactly the optional ports of its capabilities', async () => {
    const factory = make();

    const engine = await factory.create(session, emitterOf(ignored));

    for (const method of CORE_METHODS) expect(typeof engine[method]).toBe('function');
    const exposed = OPTIONAL_PORTS.filter(
      (port) => (engine as unknown as Record<string, unknown>)[port] !== undefined,
    );
    expect(exposed.sort()).toEqual(expected.ports);
  });
});
