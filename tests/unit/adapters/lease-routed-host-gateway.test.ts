/**
 * The functions' HostGateway in multi-node mode, as one unit: the memory session store, a recording fake of the
 * host RPC client and a test clock, so "live", "lapsed" and "a claim between read and write" are exact instants.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { LeaseRoutedHostGateway } from '#shared/adapters/host-rpc/lease-routed-host-gateway.js';
import { MemorySessionStore } from '#shared/adapters/memory/memory-stores.js';
import type {
  HostOperation,
  HostOperationInput,
  HostOperationResult,
} from '#shared/domain/host-operations.js';
import type { Session, SessionStatus } from '#shared/domain/session.js';
import { IncompleteOperationError, UnavailableError } from '#shared/errors/app-error.js';
import type { HostRpcClient } from '#shared/ports/host-rpc.port.js';
import type { SessionPatch, SessionWriteOptions } from '#shared/ports/session-store.port.js';
import { aSession, T0 } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const OWNER_URL = 'http://node-a.internal:2886';
const NEW_OWNER_URL = 'http://node-b.internal:2886';

/** Records each call; answers with `answer` (a test replaces it to fail or to answer something specific). */
class RecordingRpc implements HostRpcClient {
  readonly calls: { nodeUrl: string; request: unknown }[] = [];
  answer: (request: { operation: HostOperation }) => Promise<unknown> = async () => null;

  async call<Op extends HostOperation>(
    nodeUrl: string,
    operation: Op,
    input: HostOperationInput<Op>,
  ): Promise<HostOperationResult<Op>> {
    const request = { operation, input };
    this.calls.push({ nodeUrl, request });
    return (await this.answer(request)) as HostOperationResult<Op>;
  }
}

/** The memory store, with a hook that runs just before each `update` (a concurrent writer between read and write). */
class RacingSessionStore extends MemorySessionStore {
  beforeUpdate: (() => Promise<void>) | null = null;

  override async update(id: string, patch: SessionPatch, options?: SessionWriteOptions) {
    await this.beforeUpdate?.();
    return super.update(id, patch, options);
  }
}

describe('LeaseRoutedHostGateway', () => {
  let sessions: RacingSessionStore;
  let rpc: RecordingRpc;
  let clock: TestClock;
  let wiped: string[];
  let gateway: LeaseRoutedHostGateway;

  beforeEach(() => {
    sessions = new RacingSessionStore();
    rpc = new RecordingRpc();
    clock = new TestClock(T0);
    wiped = [];
    gateway = new LeaseRoutedHostGateway({
      sessions,
      clock,
      rpc,
      wipeCredentials: async (id) => {
        wiped.push(id);
      },
    });
  });

  /** A stored session whose lease (by node-a) ends `leaseSeconds` after the clock's now; null = unowned. */
  async function seed(
    status: SessionStatus,
    leaseSeconds: number | null,
    overrides: Partial<Session> = {},
  ): Promise<Session> {
    const now = clock.now().getTime();
    const lease =
      leaseSeconds === null
        ? {}
        : {
            nodeId: 'node-a',
            nodeUrl: OWNER_URL,
            claimedAt: new Date(now - 60_000).toISOString(),
            leaseExpiresAt: new Date(now + leaseSeconds * 1000).toISOString(),
          };
    const stamp = new Date(now - 120_000).toISOString();
    const session = aSession({ status, createdAt: stamp, updatedAt: stamp, ...lease, ...overrides });
    await sessions.create(session);
    return session;
  }

  const row = async (id: string) => sessions.findById(id);

  describe('a live owner answers every owner-directed call', () => {
    it.each<[string, (g: LeaseRoutedHostGateway, id: string) => Promise<unknown>, (id: string) => unknown]>([
      [
        'stop',
        (g, id) => g.call('session.stop', { sessionId: id }),
        (id) => ({ operation: 'session.stop', input: { sessionId: id } }),
      ],
      [
        'logout',
        (g, id) => g.call('session.logout', { sessionId: id }),
        (id) => ({ operation: 'session.logout', input: { sessionId: id } }),
      ],
      [
        'forceKill',
        (g, id) => g.call('session.forceKill', { sessionId: id }),
        (id) => ({ operation: 'session.forceKill', input: { sessionId: id } }),
      ],
      [
        'getQr',
        (g, id) => g.call('session.qr', { sessionId: id }),
        (id) => ({ operation: 'session.qr', input: { sessionId: id } }),
      ],
      [
        'requestPairingCode',
        (g, id) => g.call('session.pairingCode', { sessionId: id, phone: '4915112345678' }),
        (id) => ({ operation: 'session.pairingCode', input: { sessionId: id, phone: '4915112345678' } }),
      ],
    ])('%s goes to the owner at its nodeUrl and answers what the owner answered', async (_, act, request) => {
      const session = await seed('ready', 1);
      const ownerAnswer = { answered: 'by node-a' };
      rpc.answer = async () => ownerAnswer;
      await expect(act(gateway, session.id)).resolves.toBe(ownerAnswer);
      expect(rpc.calls).toEqual([{ nodeUrl: OWNER_URL, request: request(session.id) }]);
      expect(await row(session.id)).toEqual(session);
    });
  });

  describe('a lapsed lease (leaseExpiresAt at or before now) is answered from the row', () => {
    it('stop writes disconnected and clears the dead owner’s lease fields', async () => {
      const session = await seed('ready', 0, { lastError: 'Reconnecting (attempt 5): connection lost' });
      const stopped = await gateway.call('session.stop', { sessionId: session.id });
      expect(stopped).toEqual({
        ...session,
        status: 'disconnected',
        lastError: null,
        nodeId: null,
        nodeUrl: null,
        claimedAt: null,
        leaseExpiresAt: null,
        updatedAt: clock.now().toISOString(),
      });
      expect(await row(session.id)).toEqual(stopped);
      expect(rpc.calls).toEqual([]);
    });

    it('stop of a session the status machine cannot stop answers the row unchanged', async () => {
      const session = await seed('created', null);
      await expect(gateway.call('session.stop', { sessionId: session.id })).resolves.toEqual(session);
      expect(await row(session.id)).toEqual(session);
    });

    it.each([
      ['logout', (g: LeaseRoutedHostGateway, id: string) => g.call('session.logout', { sessionId: id })],
      [
        'forceKill',
        (g: LeaseRoutedHostGateway, id: string) => g.call('session.forceKill', { sessionId: id }),
      ],
    ])('%s is 400 SESSION_NOT_STARTED and writes nothing', async (_, act) => {
      const session = await seed('ready', -5);
      await expect(act(gateway, session.id)).rejects.toMatchObject({
        status: 400,
        code: 'SESSION_NOT_STARTED',
      });
      expect(await row(session.id)).toEqual(session);
      expect(rpc.calls).toEqual([]);
    });

    it.each<[SessionStatus, string]>([
      ['initializing', 'QR_NOT_AVAILABLE'],
      ['qr_ready', 'QR_NOT_AVAILABLE'],
      ['disconnected', 'QR_NOT_AVAILABLE'],
      ['authenticating', 'ALREADY_AUTHENTICATED'],
      ['ready', 'ALREADY_AUTHENTICATED'],
    ])('getQr of a %s session is 400 %s', async (status, code) => {
      const session = await seed(status, 0);
      await expect(gateway.call('session.qr', { sessionId: session.id })).rejects.toMatchObject({
        status: 400,
        code,
      });
      expect(rpc.calls).toEqual([]);
    });

    it.each<[SessionStatus, string]>([
      ['disconnected', 'SESSION_NOT_STARTED'],
      ['qr_ready', 'SESSION_NOT_STARTED'],
      ['ready', 'ALREADY_AUTHENTICATED'],
    ])('requestPairingCode of a %s session is 400 %s', async (status, code) => {
      const session = await seed(status, -1);
      await expect(
        gateway.call('session.pairingCode', { sessionId: session.id, phone: '4915112345678' }),
      ).rejects.toMatchObject({
        status: 400,
        code,
      });
      expect(rpc.calls).toEqual([]);
    });
  });

  it('an owner that does not answer is 409 SESSION_OWNER_UNREACHABLE (retryable) and the row is untouched', async () => {
    const session = await seed('ready', 30);
    rpc.answer = async () => {
      throw new UnavailableError('HOST_UNAVAILABLE', 'refused');
    };
    await expect(gateway.call('session.stop', { sessionId: session.id })).rejects.toMatchObject({
      status: 409,
      code: 'SESSION_OWNER_UNREACHABLE',
      retryable: true,
    });
    expect(await row(session.id)).toEqual(session);
  });

  it("the owner's own AppError passes through unchanged", async () => {
    const session = await seed('ready', 30);
    const refusal = new IncompleteOperationError('SESSION_LOGOUT_INCOMPLETE', 'timed out');
    rpc.answer = async () => {
      throw refusal;
    };
    await expect(gateway.call('session.logout', { sessionId: session.id })).rejects.toBe(refusal);
  });

  it('another retryable 503 from the owner is not mistaken for an unreachable owner', async () => {
    const session = await seed('ready', 30);
    const busy = new UnavailableError('DEPENDENCY_UNAVAILABLE', 'store down');
    rpc.answer = async () => {
      throw busy;
    };
    await expect(gateway.call('session.stop', { sessionId: session.id })).rejects.toBe(busy);
  });

  it('an unknown session is 404', async () => {
    await expect(gateway.call('session.stop', { sessionId: randomUUID() })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    await expect(gateway.call('session.qr', { sessionId: randomUUID() })).rejects.toMatchObject({
      status: 404,
    });
    expect(rpc.calls).toEqual([]);
  });

  describe('discard', () => {
    it('with a live owner asks the owner (who stops its engine and wipes) and wipes nothing here', async () => {
      const session = await seed('ready', 30);
      await gateway.call('session.discard', { sessionId: session.id });
      expect(rpc.calls).toEqual([
        { nodeUrl: OWNER_URL, request: { operation: 'session.discard', input: { sessionId: session.id } } },
      ]);
      expect(wiped).toEqual([]);
    });

    it('without one wipes the stored credentials here', async () => {
      const session = await seed('disconnected', -30);
      await gateway.call('session.discard', { sessionId: session.id });
      expect(wiped).toEqual([session.id]);
      expect(rpc.calls).toEqual([]);
    });

    it('with an unreachable owner is 409 and wipes nothing (its engine may still be using them)', async () => {
      const session = await seed('ready', 30);
      rpc.answer = async () => {
        throw new UnavailableError('HOST_UNAVAILABLE', 'timeout');
      };
      await expect(gateway.call('session.discard', { sessionId: session.id })).rejects.toMatchObject({
        code: 'SESSION_OWNER_UNREACHABLE',
      });
      expect(wiped).toEqual([]);
    });
  });

  it('stats counts the sessions with a live lease, within the caller’s scope', async () => {
    const live = await seed('ready', 30);
    const lapsed = await seed('ready', 0);
    const unowned = await seed('disconnected', null);
    await seed('qr_ready', 5);
    await expect(gateway.stats()).resolves.toEqual({ activeEngines: 2 });
    await expect(gateway.stats([live.id, lapsed.id, unowned.id])).resolves.toEqual({ activeEngines: 1 });
    await expect(gateway.stats([lapsed.id, unowned.id])).resolves.toEqual({ activeEngines: 0 });
    // A scope of no sessions sees none, not all of them.
    await expect(gateway.stats([])).resolves.toEqual({ activeEngines: 0 });
  });

  describe('a host claims the session between the read and the write', () => {
    it('the stop goes to the new owner instead of overwriting its row', async () => {
      const session = await seed('ready', 0);
      sessions.beforeUpdate = async () => {
        sessions.beforeUpdate = null;
        const claim = { nodeId: 'node-b', nodeUrl: NEW_OWNER_URL, now: clock.now(), ttlMs: 30_000 };
        expect((await sessions.claimLease(session.id, claim)).outcome).toBe('updated');
      };
      const ownerAnswer = { ...session, status: 'disconnected' as const };
      rpc.answer = async () => ownerAnswer;
      await expect(gateway.call('session.stop', { sessionId: session.id })).resolves.toBe(ownerAnswer);
      expect(rpc.calls).toEqual([
        { nodeUrl: NEW_OWNER_URL, request: { operation: 'session.stop', input: { sessionId: session.id } } },
      ]);
      expect(await row(session.id)).toMatchObject({ status: 'ready', nodeId: 'node-b' });
    });

    it('a row that keeps changing under every attempt ends in a retryable 409 SESSION_BUSY', async () => {
      const session = await seed('ready', null);
      let flips = 0;
      // Another writer moves the status on just before each write, so every compare-and-set fails.
      const flip = async () => {
        flips++;
        sessions.beforeUpdate = null;
        const current = await sessions.findById(session.id);
        await sessions.update(session.id, {
          status: current?.status === 'ready' ? 'action_required' : 'ready',
        });
        sessions.beforeUpdate = flip;
      };
      sessions.beforeUpdate = flip;
      await expect(gateway.call('session.stop', { sessionId: session.id })).rejects.toMatchObject({
        status: 409,
        code: 'SESSION_BUSY',
        retryable: true,
      });
      expect(flips).toBe(3);
      expect(rpc.calls).toEqual([]);
    });
  });
});
