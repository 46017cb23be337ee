/**
 * The dispatcher's view of the webhook store writes `lastTriggeredAt` at most once a second per webhook: a write per
 * delivery cost more than the delivery itself at a few thousand deliveries a second.
 */
import { describe, expect, it } from '@jest/globals';
import { MemoryAuditLogStore } from '#shared/adapters/memory/memory-audit-log-store.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { WebhookStore } from '#shared/ports/webhook-store.port.js';
import {
  storeDeliveryTargets,
  TRIGGERED_WRITE_INTERVAL_MS,
} from '#shared/webhooks/store-delivery-adapters.js';
import { T0 } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { aDeliveryTarget } from '#tests/helpers/webhook-fixtures.js';

describe('store delivery targets', () => {
  it('writes lastTriggeredAt on the first success, then at most once per interval per webhook', async () => {
    const writes: [string, string][] = [];
    const webhooks = {
      touchTriggered: async (_sessionId: string, id: string, at: Date) =>
        void writes.push([id, at.toISOString()]),
    } as unknown as WebhookStore;
    const audit = new AuditRecorder(
      new MemoryAuditLogStore(),
      new TestClock(T0),
      silentLogger,
      createMetrics(),
    );
    const targets = storeDeliveryTargets(webhooks, audit);
    const t0 = new Date(T0).getTime();
    const at = (ms: number) => new Date(t0 + ms);

    await targets.triggered(aDeliveryTarget({ id: 'a' }), at(0));
    await targets.triggered(aDeliveryTarget({ id: 'a' }), at(TRIGGERED_WRITE_INTERVAL_MS - 1));
    await targets.triggered(aDeliveryTarget({ id: 'b' }), at(10));
    await targets.triggered(aDeliveryTarget({ id: 'a' }), at(TRIGGERED_WRITE_INTERVAL_MS));

    expect(writes).toEqual([
      ['a', at(0).toISOString()],
      ['b', at(10).toISOString()],
      ['a', at(TRIGGERED_WRITE_INTERVAL_MS).toISOString()],
    ]);
  });
});
