import { describe, expect, it } from '@jest/globals';
import { MemoryApiKeyStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { UsageTracker } from '#shared/auth/usage-tracker.js';
import type { Caller } from '#shared/domain/caller.js';
import { AppError } from '#shared/errors/app-error.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { generateApiKey, hashApiKey } from '#shared/security/secrets.js';
import { type AccessRequirement, authenticate } from '#shared/use-cases/auth/authenticate.js';
import { anApiKey } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const request: Caller = {
  key: null,
  ip: '10.0.0.7',
  userAgent: null,
  requestId: 'r',
  method: 'GET',
  path: '/api/x',
};

async function setup(overrides: Parameters<typeof anApiKey>[0] = {}) {
  const plaintext = generateApiKey();
  const clock = new TestClock();
  const apiKeys = new MemoryApiKeyStore();
  const auditStore = new MemoryAuditLogStore();
  const audit = new AuditRecorder(auditStore, clock, silentLogger, createMetrics());
  const usage = new UsageTracker(apiKeys, silentLogger, 60_000);
  const key = anApiKey({ keyHash: hashApiKey(plaintext), role: 'operator', ...overrides });
  await apiKeys.create(key);
  const run = (requirement: AccessRequirement, presented: string | undefined = plaintext, caller = request) =>
    authenticate({ apiKeys, usage, audit, clock }, presented, caller, requirement);
  /** The stored refusals, read without a flush. */
  const stored = async () =>
    (await auditStore.query({ action: 'api_key_auth_failed' }, { limit: 50, offset: 0 })).data;
  const failures = async () => {
    await audit.flush();
    return stored();
  };
  return { key, run, failures, stored, usage, apiKeys, clock };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, code: error.code };
  }
  throw new Error('expected a refusal');
}

describe('authenticate', () => {
  it('resolves a valid key to the caller key and counts its use', async () => {
    const { key, run, usage, apiKeys } = await setup();
    await expect(run({ role: 'viewer' })).resolves.toEqual({
      id: key.id,
      name: key.name,
      role: 'operator',
      allowedSessions: null,
      allowedChats: null,
    });
    await usage.flush();
    expect((await apiKeys.findById(key.id))?.usageCount).toBe(1);
  });

  it.each([
    ['missing', ''],
    ['unknown', generateApiKey()],
  ])('refuses a %s key with 401 and audits it', async (_label, presented) => {
    const { run, failures } = await setup();
    await expect(refusal(run({ role: 'viewer' }, presented))).resolves.toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(await failures()).toHaveLength(1);
  });

  it('has stored the api_key_auth_failed entry by the time the refusal is thrown', async () => {
    const { run, stored } = await setup();
    await refusal(run({ role: 'viewer' }, generateApiKey()));
    expect(await stored()).toEqual([expect.objectContaining({ statusCode: 401, ipAddress: '10.0.0.7' })]);
  });

  it('refuses revoked and expired keys with 401', async () => {
    const revoked = await setup({ isActive: false });
    await expect(refusal(revoked.run({ role: 'viewer' }))).resolves.toMatchObject({ status: 401 });
    const expired = await setup({ expiresAt: '2024-12-31T23:59:59.000Z' });
    await expect(refusal(expired.run({ role: 'viewer' }))).resolves.toMatchObject({ status: 401 });
  });

  it('refuses a lower role with 403 FORBIDDEN_ROLE', async () => {
    const { run } = await setup({ role: 'viewer' });
    await expect(refusal(run({ role: 'operator' }))).resolves.toEqual({
      status: 403,
      code: 'FORBIDDEN_ROLE',
    });
  });

  it('enforces allowedIps and fails closed when the client IP is unknown', async () => {
    const { run } = await setup({ allowedIps: ['10.0.0.0/24'] });
    await expect(run({ role: 'viewer' })).resolves.toBeTruthy();
    await expect(
      refusal(run({ role: 'viewer' }, undefined, { ...request, ip: '10.0.1.7' })),
    ).resolves.toEqual({
      status: 403,
      code: 'FORBIDDEN_IP',
    });
  });

  it('fails closed on allowedIps with no client IP', async () => {
    const { run } = await setup({ allowedIps: ['10.0.0.0/24'] });
    await expect(refusal(run({ role: 'viewer' }, undefined, { ...request, ip: null }))).resolves.toEqual({
      status: 403,
      code: 'FORBIDDEN_IP',
    });
  });

  it('limits a session-scoped key to its sessions and refuses it on unscoped routes', async () => {
    const { run } = await setup({ allowedSessions: ['s-1'] });
    await expect(run({ role: 'viewer', sessionId: 's-1' })).resolves.toMatchObject({
      allowedSessions: ['s-1'],
    });
    await expect(refusal(run({ role: 'viewer', sessionId: 's-2' }))).resolves.toEqual({
      status: 403,
      code: 'FORBIDDEN_SESSION',
    });
    await expect(refusal(run({ role: 'viewer', unscoped: true }))).resolves.toEqual({
      status: 403,
      code: 'FORBIDDEN_SCOPED_KEY',
    });
  });

  it('hands a chat-limited key its chats, and refuses it (audited) on a route that declares no chats', async () => {
    const { run, stored } = await setup({ allowedChats: ['15550001111@c.us'] });
    await expect(run({ role: 'viewer', sessionId: 's-1', chats: true })).resolves.toMatchObject({
      allowedChats: ['15550001111@c.us'],
    });
    await expect(refusal(run({ role: 'viewer', sessionId: 's-1' }))).resolves.toEqual({
      status: 403,
      code: 'FORBIDDEN_CHAT_RESTRICTED',
    });
    expect(await stored()).toEqual([expect.objectContaining({ statusCode: 403, sessionId: 's-1' })]);
  });
});
