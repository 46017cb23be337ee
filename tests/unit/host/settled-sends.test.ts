/**
 * What the host records when a send settles: message_sent / message_failed audit entries for every send, and the
 * outcome of paced sends for the send breaker (only engine refusals count as failures; reactions and revokes never
 * reach it; without pacing there is no breaker at all).
 */
import { describe, expect, it } from '@jest/globals';
import { SettledSends } from '#host/messages/settled-sends.js';
import { MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { SendBreaker } from '#shared/use-cases/messages/send-breaker.js';
import { aMessage } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

function setUp(withBreaker = true) {
  const log = new MemoryAuditLogStore();
  const audit = new AuditRecorder(log, new TestClock(), silentLogger, createMetrics());
  const told: string[] = [];
  const breaker = {
    succeeded: async (sessionId: string) => {
      told.push(`succeeded ${sessionId}`);
    },
    failed: async (sessionId: string, error: unknown) => {
      told.push(`failed ${sessionId} ${(error as Error).message}`);
    },
  } as unknown as SendBreaker;
  const settled = new SettledSends({ audit, breaker: withBreaker ? breaker : null });
  const entries = async () => {
    await audit.flush();
    return (await log.query({}, { limit: 10, offset: 0 })).data;
  };
  return { settled, told, entries };
}

describe('SettledSends', () => {
  it('audits a sent message and tells the breaker of a paced send', async () => {
    const { settled, told, entries } = setUp();
    const message = aMessage({ status: 'pending' });
    await settled.sent(message);
    await settled.sent(aMessage({ sessionId: message.sessionId, type: 'reaction' }));
    expect(told).toEqual([`succeeded ${message.sessionId}`]);
    const sent = (await entries()).find((entry) => entry.metadata?.type === 'text');
    expect(sent).toMatchObject({
      action: 'message_sent',
      severity: 'info',
      sessionId: message.sessionId,
      apiKeyId: null,
      metadata: {
        messageId: message.id,
        waMessageId: message.waMessageId,
        chatId: message.chatId,
        type: 'text',
      },
    });
  });

  it('audits a failed message, and counts only what the engine refused toward the breaker', async () => {
    const { settled, told, entries } = setUp();
    const message = aMessage({ status: 'pending' });
    await settled.failed(message, 'session is not connected');
    await settled.failed(message, 'send refused by the network', new Error('send refused by the network'));
    await settled.failed(aMessage({ type: 'revoke' }), 'refused', new Error('refused'));
    expect(told).toEqual([`failed ${message.sessionId} send refused by the network`]);
    const failed = await entries();
    expect(failed).toHaveLength(3);
    expect(failed.map((entry) => [entry.action, entry.severity])).toEqual([
      ['message_failed', 'warn'],
      ['message_failed', 'warn'],
      ['message_failed', 'warn'],
    ]);
    expect(failed.map((entry) => entry.errorMessage).sort()).toEqual([
      'refused',
      'send refused by the network',
      'session is not connected',
    ]);
  });

  it('only audits when send pacing is off', async () => {
    const { settled, entries } = setUp(false);
    await settled.sent(aMessage());
    await settled.failed(aMessage(), 'refused', new Error('refused'));
    expect((await entries()).map((entry) => entry.action).sort()).toEqual(['message_failed', 'message_sent']);
  });
});
