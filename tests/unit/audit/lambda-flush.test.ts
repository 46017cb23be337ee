/**
 * A Lambda may be frozen right after answering: every audit entry a request recorded, awaited or left to the
 * background, is stored by the time the handler returns, and none is written twice.
 */

import { describe, expect, it } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { installDeps } from '#functions/deps.js';
import { createFunctionDeps } from '#functions/function-deps.js';
import { createMcpHandler } from '#functions/mcp/mcp-handler.js';
import { handler as sessionsHandler } from '#functions/sessions/handler.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import {
  createMemoryDataStore,
  createMemoryMainStore,
  MemoryAuditLogStore,
} from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { loadEnv } from '#shared/config/env.js';
import type { AuditEntry } from '#shared/domain/audit.js';
import { createMetrics } from '#shared/observability/metrics.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { generateApiKey, hashApiKey } from '#shared/security/secrets.js';
import { anApiKey } from '#tests/helpers/builders.js';
import { lambdaEvent } from '#tests/helpers/lambda-event.js';
import { TestClock } from '#tests/helpers/test-clock.js';

/** The memory audit log, remembering every batch it was asked to append. */
class CountingAuditLogStore extends MemoryAuditLogStore {
  readonly appended: AuditEntry[] = [];
  override async append(entries: readonly AuditEntry[]): Promise<void> {
    this.appended.push(...entries);
    await super.append(entries);
  }
}

async function lambda() {
  const clock = new TestClock();
  const audit = new CountingAuditLogStore();
  const main = { ...createMemoryMainStore(), audit };
  const plaintext = generateApiKey();
  await main.apiKeys.create(anApiKey({ keyHash: hashApiKey(plaintext), role: 'admin' }));
  const recorder = new AuditRecorder(audit, clock, silentLogger, createMetrics());
  const deps = createFunctionDeps({
    clock,
    logger: silentLogger,
    main,
    data: createMemoryDataStore(),
    media: new MemoryMediaStorage(),
    commands: new CommandQueue(
      new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 }),
    ),
    // Creating a session never reaches a host.
    host: {} as HostGateway,
    outcomes: new InProcessMessageOutcomes(),
    audit: recorder,
    env: loadEnv({}),
    version: 'test',
    metrics: createMetrics(),
  });
  installDeps({ ...deps, flushAfterRequest: () => recorder.flush() });
  const call = (method: 'GET' | 'POST', key: string, body?: unknown) =>
    sessionsHandler(
      lambdaEvent({ method, path: '/api/sessions', key, body, now: clock.now() }),
      {} as Context,
    );
  const actions = () => audit.appended.map((entry) => entry.action).sort();
  const mcp = createMcpHandler();
  /** A tools/list posted to /mcp as an SDK client posts it. */
  const callMcp = (key: string) => {
    const event = lambdaEvent({
      method: 'POST',
      path: '/mcp',
      key,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    event.headers.accept = 'application/json, text/event-stream';
    return mcp(event);
  };
  return { call, callMcp, plaintext, actions };
}

describe('Lambda requests and the audit log', () => {
  it('stores what a request left to the background (api_key_used) before answering', async () => {
    const { call, plaintext, actions } = await lambda();
    const res = await call('GET', plaintext);
    expect(res.statusCode).toBe(200);
    expect(actions()).toEqual(['api_key_used']);
  });

  it('stores what an MCP request left to the background before answering, as REST does', async () => {
    const { callMcp, plaintext, actions } = await lambda();
    expect((await callMcp(plaintext)).statusCode).toBe(200);
    expect(actions()).toEqual(['api_key_used']);
  });

  it('stores an awaited entry once: the flush after the request does not write it again', async () => {
    const { call, plaintext, actions } = await lambda();
    const res = await call('POST', plaintext, { name: 'lambda-one' });
    expect(res.statusCode).toBe(201);
    expect(actions()).toEqual(['api_key_used', 'session_created']);
  });

  it('stores a refusal before the 401 answer, once', async () => {
    const { call, actions } = await lambda();
    const res = await call('POST', generateApiKey(), { name: 'lambda-two' });
    expect(res.statusCode).toBe(401);
    expect(actions()).toEqual(['api_key_auth_failed']);
  });
});
