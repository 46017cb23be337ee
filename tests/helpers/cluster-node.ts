/**
 * Real multi-node hosts for tests: each node is a real Host with the test engine and its own real RPC server, and
 * reaches the others through the real HTTP RPC client. Nodes share what a deployment shares (the stores, the
 * WhatsApp network, the clock) and nothing else (event bus, audit, metrics are per process).
 */

import { ChatSink } from '#host/chats/chat-sink.js';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { Host } from '#host/host.js';
import { MessageSink } from '#host/messages/message-sink.js';
import { type HostRpcTarget, type RunningRpcServer, startRpcServer } from '#host/rpc/rpc-server.js';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryChatStore } from '#shared/adapters/memory/memory-chat-store.js';
import { MemoryIdentityStore } from '#shared/adapters/memory/memory-identity-store.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import {
  createMemoryDataStore,
  MemoryAuditLogStore,
  MemoryMessageStore,
  MemorySessionStore,
  MemoryTeardownFenceStore,
} from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { memoryStatusSink } from '#tests/helpers/memory-status-sink.js';
import { T0 } from './builders.js';
import { recordingEvents } from './recording-events.js';
import { TestClock } from './test-clock.js';

export const RPC_TOKEN = 'cluster-test-rpc-token';

/** What the nodes of one deployment share. */
export interface SharedBackends {
  sessions: MemorySessionStore;
  messages: MemoryMessageStore;
  fences: MemoryTeardownFenceStore;
  network: TestNetwork;
  clock: TestClock;
  /** The command queue every node sends to (what a host hands its sessions over on at shutdown). */
  commands: CommandQueue;
}

/** Fresh in-memory backends for the nodes of one test deployment, the clock at T0. */
export function sharedBackends(): SharedBackends {
  return {
    sessions: new MemorySessionStore(),
    messages: new MemoryMessageStore(),
    fences: new MemoryTeardownFenceStore(),
    network: new TestNetwork(),
    clock: new TestClock(T0),
    commands: new CommandQueue(
      new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 }),
    ),
  };
}

export interface LeaseTimings {
  leaseTtlMs: number;
  leaseRenewMs: number;
  sweepMs: number;
}

/** The lease timings the placement tests run with (their timers are jest's fake ones: only the ratios matter). */
export const TEST_TIMINGS: LeaseTimings = { leaseTtlMs: 30_000, leaseRenewMs: 10_000, sweepMs: 10_000 };

export interface ClusterNode {
  nodeId: string;
  url: string;
  host: Host;
  /** Events this node's host published (its own bus: another node's events never show here). */
  published: GatewayEvent[];
  rpc: RunningRpcServer;
}

/**
 * The RPC server must be listening before the Host is built (its URL is the node's advertised nodeUrl), and the
 * Host must exist before the server can call it: the server gets this target, bound to the Host once it exists.
 */
function lateBoundTarget(): { target: HostRpcTarget; bind(host: Host): void } {
  let bound: Host | null = null;
  const host = (): Host => {
    if (!bound) throw new Error('RPC call before the host was bound');
    return bound;
  };
  return {
    bind: (h) => {
      bound = h;
    },
    target: { call: (operation, input) => host().call(operation, input) },
  };
}

export async function startClusterNode(
  nodeId: string,
  shared: SharedBackends,
  timings: LeaseTimings,
): Promise<ClusterNode> {
  const late = lateBoundTarget();
  const rpc = await startRpcServer({
    host: late.target,
    token: RPC_TOKEN,
    port: 0,
    bindHost: '127.0.0.1',
    nodeId,
    logger: silentLogger,
  });
  const { recorder, published } = recordingEvents();
  const { clock } = shared;
  const host = new Host({
    media: new MemoryMediaStorage(),
    outcomes: new InProcessMessageOutcomes(),
    sessions: shared.sessions,
    messages: shared.messages,
    fences: shared.fences,
    data: {
      ...createMemoryDataStore(),
      sessions: shared.sessions,
      messages: shared.messages,
      fences: shared.fences,
    },
    events: recorder,
    clock,
    logger: silentLogger,
    engines: new TestEngineFactory(shared.network),
    sink: new MessageSink({
      messages: shared.messages,
      identities: new MemoryIdentityStore(),
      media: new MemoryMediaStorage(),
      events: recorder,
      chats: new ChatSink({
        chats: new MemoryChatStore(),
        messages: shared.messages,
        media: new MemoryMediaStorage(),
        logger: silentLogger,
      }),
      statuses: memoryStatusSink(recorder, clock),
      clock,
      logger: silentLogger,
    }),
    audit: new AuditRecorder(new MemoryAuditLogStore(), clock, silentLogger, createMetrics()),
    teardownTimeoutMs: 50,
    random: () => 0.5,
    commands: shared.commands,
    metrics: createMetrics(),
    cluster: {
      nodeId,
      nodeUrl: rpc.url,
      rpc: new HttpHostRpcClient({ token: RPC_TOKEN, timeoutMs: 2000 }),
      ...timings,
    },
    maxSessions: 0,
  });
  late.bind(host);
  return { nodeId, url: rpc.url, host, published, rpc };
}

/** Turns the event loop (engines report on setImmediate; RPC is real I/O) until `probe` holds. */
export async function until(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let turn = 0; turn < 20_000; turn++) {
    if (await probe()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}
