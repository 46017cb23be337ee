/**
 * The Baileys engine is loaded with the first session's engine, not at boot: the deferred factory loads its library
 * once, credentials of a session are wiped without loading it, and a runner stopped while the library is still
 * loading never starts the engine it was building.
 */
import { describe, expect, it } from '@jest/globals';
import { DeferredEngineFactory } from '#host/engines/deferred-engine-factory.js';
import type { EngineFactory } from '#host/engines/engine.port.js';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { type RunnerDeps, SessionRunner } from '#host/sessions/session-runner.js';
import { MemorySessionStore } from '#shared/adapters/memory/memory-stores.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aSession } from '#tests/helpers/builders.js';
import { recordingEvents } from '#tests/helpers/recording-events.js';

const events = {} as Parameters<EngineFactory['create']>[1];
const engineSession = { id: 's1', name: 'one', config: {}, proxyUrl: null };

describe('DeferredEngineFactory', () => {
  it('loads the engine library once, on the first engine it builds', async () => {
    const network = new TestNetwork();
    let loads = 0;
    const factory = new DeferredEngineFactory(
      'test',
      async () => {
        loads++;
        return new TestEngineFactory(network);
      },
      async () => undefined,
    );
    expect(loads).toBe(0);
    await Promise.all([factory.create(engineSession, events), factory.create(engineSession, events)]);
    await factory.create(engineSession, events);
    expect(loads).toBe(1);
  });

  it('wipes stored credentials without loading the library, and through it once loaded', async () => {
    const wipedStored: string[] = [];
    const wipedLoaded: string[] = [];
    let loads = 0;
    const factory = new DeferredEngineFactory(
      'test',
      async () => {
        loads++;
        const inner = new TestEngineFactory(new TestNetwork());
        return Object.assign(inner, {
          wipeCredentials: async (id: string) => void wipedLoaded.push(id),
        });
      },
      async (id) => void wipedStored.push(id),
    );
    await factory.wipeCredentials('a');
    expect({ loads, wipedStored, wipedLoaded }).toEqual({ loads: 0, wipedStored: ['a'], wipedLoaded: [] });
    await factory.create(engineSession, events);
    await factory.wipeCredentials('b');
    expect({ loads, wipedStored, wipedLoaded }).toEqual({ loads: 1, wipedStored: ['a'], wipedLoaded: ['b'] });
  });

  it('never starts an engine whose runner was stopped while the library loaded', async () => {
    const network = new TestNetwork();
    let release: () => void = () => undefined;
    const loading = new Promise<void>((resolve) => {
      release = resolve;
    });
    const factory = new DeferredEngineFactory(
      'test',
      async () => {
        await loading;
        return new TestEngineFactory(network);
      },
      async () => undefined,
    );
    const sessions = new MemorySessionStore();
    const session = aSession({ status: 'initializing' });
    await sessions.create(session);
    const deps = {
      sessions,
      clock: systemClock,
      logger: silentLogger,
      engines: factory,
      events: recordingEvents().recorder,
    } as unknown as RunnerDeps;
    const runner = new SessionRunner(
      deps,
      { id: session.id, name: session.name, config: {}, proxyUrl: null },
      () => undefined,
    );
    const launched = runner.launch();
    await runner.stop();
    release();
    await launched;
    expect(runner.hasLiveEngine).toBe(false);
    expect(network.isConnected(session.id)).toBe(false);
  });
});
